import type { Contract, ContractTool, JsonSchema } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { diffContracts } from "../../src/diff/diff.ts";
import { formatChanges } from "../../src/diff/report.ts";

const contract = (...tools: ContractTool[]): Contract => ({ server: "s", tools });
const tool = (inputSchema: JsonSchema, outputSchema?: JsonSchema): ContractTool => ({
  name: "t",
  inputSchema,
  ...(outputSchema ? { outputSchema } : {}),
});
const obj = (
  properties: Record<string, JsonSchema>,
  required: string[] = [],
  extra: JsonSchema = {},
): JsonSchema => ({
  type: "object",
  properties,
  required,
  ...extra,
});
const changes = (a: ContractTool, b: ContractTool) =>
  diffContracts(contract(a), contract(b)).map(
    (c) => `${c.breaking ? "breaking" : "ok"} ${c.pointer} ${c.message}`,
  );

describe("diff: tools", () => {
  it("classifies removed tools as breaking and added tools as not", () => {
    const a = contract({ name: "old", inputSchema: obj({}) }, { name: "kept", inputSchema: obj({}) });
    const b = contract({ name: "kept", inputSchema: obj({}) }, { name: "new", inputSchema: obj({}) });
    expect(diffContracts(a, b)).toStrictEqual([
      { tool: "new", breaking: false, pointer: "", message: 'tool "new" added' },
      { tool: "old", breaking: true, pointer: "", message: 'tool "old" removed' },
    ]);
  });

  it("finds nothing between equal contracts, and no breaking change in documentation", () => {
    const a = tool(obj({ q: { type: "string" } }, ["q"]));
    expect(changes(a, a)).toStrictEqual([]);
    expect(
      changes(a, {
        ...a,
        description: "new words",
        inputSchema: obj({ q: { type: "string", description: "query" } }, ["q"]),
      }),
    ).toStrictEqual(["ok /description description changed"]);
  });
});

describe("diff: input schemas (narrowing breaks callers)", () => {
  it("a new required parameter breaks, a new optional one does not", () => {
    const a = tool(obj({ q: { type: "string" } }, ["q"]));
    expect(
      changes(a, tool(obj({ q: { type: "string" }, limit: { type: "integer" } }, ["q", "limit"]))),
    ).toStrictEqual(['breaking /inputSchema/properties/limit new required parameter "limit"']);
    expect(changes(a, tool(obj({ q: { type: "string" }, limit: { type: "integer" } }, ["q"])))).toStrictEqual(
      ['ok /inputSchema/properties/limit new optional parameter "limit"'],
    );
  });

  it("optional → required breaks; required → optional does not", () => {
    const p = { q: { type: "string" } };
    expect(changes(tool(obj(p)), tool(obj(p, ["q"])))).toStrictEqual([
      'breaking /inputSchema/properties/q parameter "q" is now required',
    ]);
    expect(changes(tool(obj(p, ["q"])), tool(obj(p)))).toStrictEqual([
      'ok /inputSchema/properties/q parameter "q" is now optional',
    ]);
  });

  it("a removed parameter breaks only when other properties are rejected", () => {
    const a = (extra: JsonSchema) => tool(obj({ q: { type: "string" }, x: { type: "number" } }, [], extra));
    const b = (extra: JsonSchema) => tool(obj({ q: { type: "string" } }, [], extra));
    expect(changes(a({ additionalProperties: false }), b({ additionalProperties: false }))).toStrictEqual([
      'breaking /inputSchema/properties/x parameter "x" removed; clients that send it are rejected',
    ]);
    expect(changes(a({}), b({}))).toStrictEqual(['ok /inputSchema/properties/x parameter "x" removed']);
  });

  it("narrowed types, removed enum values and tighter constraints break; the opposite does not", () => {
    const at = (s: JsonSchema) => tool(obj({ v: s }));
    expect(changes(at({ type: "number" }), at({ type: "integer" }))).toStrictEqual([
      "breaking /inputSchema/properties/v/type no longer accepts type number",
    ]);
    expect(changes(at({ type: "integer" }), at({ type: ["integer", "null"] }))).toStrictEqual([
      "ok /inputSchema/properties/v/type now also accepts type null",
    ]);
    expect(changes(at({ enum: ["a", "b"] }), at({ enum: ["a", "c"] }))).toStrictEqual([
      'breaking /inputSchema/properties/v/enum value "b" removed',
      'ok /inputSchema/properties/v/enum value "c" added',
    ]);
    expect(
      changes(at({ type: "string", maxLength: 10 }), at({ type: "string", maxLength: 5, minLength: 1 })),
    ).toStrictEqual([
      "breaking /inputSchema/properties/v/minLength minLength 1 added",
      "breaking /inputSchema/properties/v/maxLength maxLength changed from 10 to 5",
    ]);
    expect(changes(at({ type: "array" }), at({ type: "array", uniqueItems: true }))).toStrictEqual([
      "breaking /inputSchema/properties/v/uniqueItems uniqueItems added",
    ]);
    expect(changes(at({ type: "string", pattern: "^a" }), at({ type: "string" }))).toStrictEqual([
      'ok /inputSchema/properties/v/pattern pattern "^a" removed',
    ]);
  });

  it("follows $refs and nested arrays of objects", () => {
    const a = tool({
      ...obj({ items: { type: "array", items: { $ref: "#/$defs/Item" } } }),
      $defs: { Item: obj({ id: { type: "string" } }, ["id"]) },
    });
    const b = tool({
      ...obj({ items: { type: "array", items: { $ref: "#/$defs/Item" } } }),
      $defs: { Item: obj({ id: { type: "string" }, qty: { type: "integer" } }, ["id", "qty"]) },
    });
    expect(changes(a, b)).toStrictEqual([
      'breaking /inputSchema/properties/items/items/properties/qty new required parameter "qty"',
    ]);
  });

  it("compares changed alternatives of anyOf one by one", () => {
    const a = tool(obj({ v: { anyOf: [{ type: "string" }, obj({ n: { type: "number" } }, ["n"])] } }));
    const b = tool(
      obj({
        v: { anyOf: [{ type: "string" }, obj({ n: { type: "number" }, m: { type: "number" } }, ["n", "m"])] },
      }),
    );
    expect(changes(a, b)).toStrictEqual([
      'breaking /inputSchema/properties/v/anyOf/1/properties/m new required parameter "m"',
    ]);
  });
});

describe("diff: output schemas (widening breaks readers)", () => {
  const input = obj({});
  it("a result field that may now be missing, or a new enum value, breaks", () => {
    const a = tool(input, obj({ n: { type: "integer" }, s: { enum: ["ok", "fail"] } }, ["n", "s"]));
    const b = tool(input, obj({ n: { type: "integer" }, s: { enum: ["ok", "fail", "retry"] } }, ["s"]));
    expect(changes(a, b)).toStrictEqual([
      'breaking /outputSchema/properties/n result field "n" is now optional; it may be missing',
      'breaking /outputSchema/properties/s/enum value "retry" added',
    ]);
  });

  it("a new result field breaks old clients only when the old schema closed the object", () => {
    const a = (extra: JsonSchema) => tool(input, obj({ n: { type: "integer" } }, ["n"], extra));
    const b = (extra: JsonSchema) =>
      tool(input, obj({ n: { type: "integer" }, m: { type: "string" } }, ["n", "m"], extra));
    expect(changes(a({}), b({}))).toStrictEqual(['ok /outputSchema/properties/m new result field "m"']);
    expect(changes(a({ additionalProperties: false }), b({ additionalProperties: false }))).toStrictEqual([
      'breaking /outputSchema/properties/m new result field "m"; clients generated from the old contract reject results that carry it',
    ]);
  });

  it("a removed output schema breaks typed callers; an added one does not", () => {
    expect(changes(tool(input, obj({})), tool(input))).toStrictEqual([
      "breaking /outputSchema output schema removed: results are no longer typed",
    ]);
    expect(changes(tool(input), tool(input, obj({})))).toStrictEqual([
      "ok /outputSchema output schema added: results are now typed",
    ]);
  });
});

it("formats breaking changes first, aligned", () => {
  const a = contract({ name: "gone", inputSchema: obj({}) }, { name: "search", inputSchema: obj({}) });
  const b = contract(
    { name: "search", inputSchema: obj({ q: { type: "string" } }, ["q"]) },
    { name: "new", inputSchema: obj({}) },
  );
  expect(formatChanges(diffContracts(a, b))).toBe(
    'breaking      gone    tool "gone" removed\n' +
      'breaking      search  /inputSchema/properties/q  new required parameter "q"\n' +
      'non-breaking  new     tool "new" added\n',
  );
});
