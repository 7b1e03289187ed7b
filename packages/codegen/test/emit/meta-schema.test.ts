import {
  type Contract,
  createAjv,
  formatDiagnostic,
  type JsonSchema,
  McpGenError,
  metaSchemaErrors,
} from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import type { EmitContext } from "../../src/emit/context.ts";
import { emitValidators } from "../../src/emit/validators.ts";

/** What Ajv's validateSchema says of the whole schema. */
function ajvSays(schema: JsonSchema): { instancePath: string; message: string }[] {
  const ajv = createAjv({ source: false });
  if (ajv.validateSchema(schema)) return [];
  return (ajv.errors ?? []).map((e) => ({ instancePath: e.instancePath, message: e.message ?? e.keyword }));
}

const object = (a: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({
  type: "object",
  properties: { a, b: { type: "string" } },
  ...extra,
});

const CASES: [string, JsonSchema][] = [
  ["a valid schema", object({ type: "integer", description: "n", examples: [1], deprecated: true })],
  ["a description that is no string", object({ type: "integer", description: 5 })],
  ["a title that is no string, at the root", object({ type: "string" }, { title: null })],
  ["examples that are no array", object({ type: "array", items: { type: "string", examples: "x" } })],
  [
    "deprecated that is no boolean",
    object({ anyOf: [{ type: "string" }, { type: "null", deprecated: "yes" }] }),
  ],
  ["readOnly that is no boolean", object({ type: "string", readOnly: 1 })],
  ["a $comment that is no string", object({ type: "string", $comment: [] })],
  ["a type Ajv does not know", object({ type: "strin" })],
  ["a minimum that is no number", object({ type: "number", minimum: "0" })],
  ["a property named like an annotation", { type: "object", properties: { title: { type: "string" } } }],
];

describe("metaSchemaErrors: the meta-schema on the schema without annotations, the annotations apart", () => {
  it.each(CASES)("%s: as Ajv's validateSchema says of the whole schema", (_, schema) => {
    expect(metaSchemaErrors(schema)).toStrictEqual(ajvSays(schema));
  });

  it("finds an annotation problem in a schema whose shape was found valid before", () => {
    expect(metaSchemaErrors(object({ type: "integer", description: "fine" }))).toStrictEqual([]);
    expect(metaSchemaErrors(object({ type: "integer", description: 5 }))).toStrictEqual([
      { instancePath: "/properties/a/description", message: "must be string" },
    ]);
  });

  it("reports a node's annotation problems in one order, whatever the order of its keys", () => {
    const expected = [
      { instancePath: "/title", message: "must be string" },
      { instancePath: "/description", message: "must be string" },
      { instancePath: "/readOnly", message: "must be boolean" },
    ];
    expect(metaSchemaErrors({ readOnly: "no", description: 1, type: "string", title: 2 })).toStrictEqual(
      expected,
    );
    expect(metaSchemaErrors({ title: 2, description: 1, readOnly: "no" })).toStrictEqual(expected);
  });
});

describe("emitValidators reports them with the contract's pointers", () => {
  it("names the tool's schema and the keyword", () => {
    const contract = {
      server: "s",
      tools: [
        { name: "good", inputSchema: object({ type: "integer", description: "fine" }) },
        { name: "bad", inputSchema: object({ type: "integer", description: 5 }) },
      ],
    } as unknown as Contract;
    const ctx: EmitContext = {
      contract,
      contractFile: "schemas/s.tools.json",
      outDir: "generated/s",
      warnings: [],
      importExtension: ".js",
    };
    const error = (() => {
      try {
        emitValidators(ctx);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(McpGenError);
    expect((error as McpGenError).diagnostics.map(formatDiagnostic)).toStrictEqual([
      [
        "error MCPG040: invalid JSON Schema: must be string",
        "  at schemas/s.tools.json /tools/1/inputSchema/properties/a/description",
        "  fix: correct the contract at the JSON pointer named in the message",
      ].join("\n"),
    ]);
  });
});
