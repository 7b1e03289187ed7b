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

describe("diff: resources, resource templates and prompts", () => {
  const args = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  });
  const base = (extra: Partial<Contract> = {}, x: Record<string, unknown> = {}): Contract => ({
    server: "s",
    tools: [],
    ...extra,
    "x-mcp-gen": { tools: {}, ...x },
  });
  const lines = (a: Contract, b: Contract) =>
    diffContracts(a, b).map((c) => `${c.breaking ? "breaking" : "ok"} ${c.tool} ${c.pointer} ${c.message}`);

  it("classifies removals, URI changes and typed argument changes", () => {
    const a = base(
      {
        resources: [
          { uri: "app://rules", name: "rules" },
          { uri: "app://old", name: "old" },
        ],
        resourceTemplates: [{ uriTemplate: "app://items/{id}", name: "item" }],
        prompts: [{ name: "review", arguments: [{ name: "code", required: true }, { name: "tone" }] }],
      },
      {
        resources: { rules: { result: { kind: "text" } }, old: { result: { kind: "text" } } },
        resourceTemplates: { item: { argumentsSchema: args({ id: { type: "string" } }, ["id"]) } },
        prompts: {
          review: {
            argumentsSchema: args({ code: { type: "string" }, tone: { type: "string" } }, ["code"]),
          },
        },
      },
    );
    const b = base(
      {
        resources: [
          { uri: "app://rules/v2", name: "rules", description: "The rules." },
          { uri: "app://new", name: "fresh" },
        ],
        resourceTemplates: [{ uriTemplate: "app://items/{id}", name: "item" }],
        prompts: [
          {
            name: "review",
            arguments: [
              { name: "code", required: true },
              { name: "lang", required: true },
            ],
          },
        ],
      },
      {
        resources: { rules: { result: { kind: "json", schema: {} } }, fresh: { result: { kind: "text" } } },
        resourceTemplates: { item: { argumentsSchema: args({ id: { type: "integer" } }, ["id"]) } },
        prompts: {
          review: {
            argumentsSchema: args({ code: { type: "string" }, lang: { type: "string" } }, ["code", "lang"]),
          },
        },
      },
    );
    expect(lines(a, b)).toStrictEqual([
      'breaking resource "rules" /uri uri changed from app://rules to app://rules/v2',
      'ok resource "rules" /description description changed',
      'breaking resource "rules" /result the value is now json instead of text',
      'breaking resource "old"  resource "old" removed',
      'ok resource "fresh"  resource "fresh" added',
      'breaking resource template "item" /argumentsSchema/properties/id/type no longer accepts type string',
      'ok resource template "item" /argumentsSchema/properties/id/type now also accepts type integer',
      'breaking prompt "review" /argumentsSchema/properties/tone argument "tone" removed; clients that send it are rejected',
      'breaking prompt "review" /argumentsSchema/properties/lang new required argument "lang"',
    ]);
  });

  it("compares pulled prompts by their argument lists, and finds nothing between equal contracts", () => {
    const a = base({ prompts: [{ name: "p", arguments: [{ name: "x" }, { name: "y" }] }] });
    const b = base({
      prompts: [{ name: "p", arguments: [{ name: "x", required: true }, { name: "z" }] }],
      resourceTemplates: [{ uriTemplate: "app://{a}", name: "t" }],
    });
    expect(lines(a, b)).toStrictEqual([
      'ok resource template "t"  resource template "t" added',
      'breaking prompt "p" /arguments argument "y" removed; clients that send it are rejected',
      'breaking prompt "p" /arguments argument "x" is now required',
      'ok prompt "p" /arguments optional argument "z" added',
    ]);
    expect(lines(b, b)).toStrictEqual([]);
    expect(lines(base(), base())).toStrictEqual([]);
  });
});

describe("diff: properties that must be absent", () => {
  it("reads { not: {} } (an absent property with a description) as false: no value", () => {
    const open = tool(obj({ id: { type: "string" }, name: { type: "string" } }));
    const absent = tool(obj({ id: { type: "string" }, name: { not: {}, description: "use id" } }));
    const absentBare = tool(obj({ id: { type: "string" }, name: false as unknown as JsonSchema }));
    expect(changes(open, absent)).toStrictEqual([
      "breaking /inputSchema/properties/name now accepts no value",
    ]);
    expect(changes(absent, open)).toStrictEqual(["ok /inputSchema/properties/name now accepts values"]);
    expect(changes(absentBare, absent)).toStrictEqual([]);
  });
});
