import type { IngestIssue } from "@mcp-gen/schema";
import { formatDiagnostic, normalizeContract, normalizeSchema } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";

const DRAFT_07 = "http://json-schema.org/draft-07/schema#";

function normalize(schema: unknown, mode: "pull" | "emit" = "pull") {
  const issues: IngestIssue[] = [];
  const result = normalizeSchema(schema, { mode, issues });
  return { result, issues: issues.map((i) => `${i.code} ${i.pointer.to} ${i.message}`) };
}

describe("normalising draft-07 schemas to 2020-12", () => {
  it("renames definitions to $defs and rewrites the refs, recursion included", () => {
    const { result, issues } = normalize({
      $schema: DRAFT_07,
      type: "object",
      properties: { tree: { $ref: "#/definitions/Node" } },
      definitions: {
        Node: {
          type: "object",
          properties: { children: { type: "array", items: { $ref: "#/definitions/Node" } } },
        },
      },
    });
    expect(result).toStrictEqual({
      type: "object",
      properties: { tree: { $ref: "#/$defs/Node" } },
      $defs: {
        Node: {
          type: "object",
          properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } },
        },
      },
    });
    expect(issues).toStrictEqual([]);
  });

  it("turns array items into prefixItems and additionalItems into items", () => {
    const { result } = normalize({
      type: "array",
      items: [{ type: "string" }, { type: "number" }],
      additionalItems: { type: "boolean" },
    });
    expect(result).toStrictEqual({
      type: "array",
      prefixItems: [{ type: "string" }, { type: "number" }],
      items: { type: "boolean" },
    });
  });

  it("splits dependencies and converts draft-04 boolean exclusive bounds", () => {
    const { result } = normalize({
      type: "object",
      properties: {
        n: { type: "number", minimum: 0, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false },
      },
      dependencies: { card: ["cvc"], vip: { required: ["level"] } },
    });
    expect(result).toStrictEqual({
      type: "object",
      properties: { n: { type: "number", maximum: 9, exclusiveMinimum: 0 } },
      dependentRequired: { card: ["cvc"] },
      dependentSchemas: { vip: { required: ["level"] } },
    });
  });

  it("turns OpenAPI nullable into a null type (or an anyOf with null)", () => {
    const { result } = normalize({
      type: "object",
      properties: {
        a: { type: "string", nullable: true, enum: ["x", "y"] },
        b: { $ref: "#/$defs/B", nullable: true, description: "b" },
        c: { type: "integer", nullable: false },
      },
      $defs: { B: { type: "boolean" } },
    });
    expect(result).toStrictEqual({
      type: "object",
      properties: {
        a: { type: ["string", "null"], enum: ["x", "y", null] },
        b: { description: "b", anyOf: [{ $ref: "#/$defs/B" }, { type: "null" }] },
        c: { type: "integer" },
      },
      $defs: { B: { type: "boolean" } },
    });
  });

  it("hoists refs to anything but a top-level definition into $defs", () => {
    const { result } = normalize({
      type: "object",
      properties: {
        home: { type: "object", properties: { street: { type: "string" } } },
        work: { $ref: "#/properties/home" },
        inner: {
          $defs: { Deep: { type: "integer" } },
          type: "object",
          properties: { d: { $ref: "#/properties/inner/$defs/Deep" } },
        },
      },
    });
    expect(result).toStrictEqual({
      type: "object",
      properties: {
        home: { type: "object", properties: { street: { type: "string" } } },
        work: { $ref: "#/$defs/home" },
        inner: {
          $defs: { Deep: { type: "integer" } },
          type: "object",
          properties: { d: { $ref: "#/$defs/Deep" } },
        },
      },
      $defs: {
        home: { type: "object", properties: { street: { type: "string" } } },
        Deep: { type: "integer" },
      },
    });
  });

  it("leaves a 2020-12 schema exactly as it is", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        when: { type: "string", format: "date-time" },
        tags: { type: "array", prefixItems: [{ type: "string" }], items: false },
      },
      required: ["when"],
      additionalProperties: false,
      $defs: { X: { anyOf: [{ type: "string" }, { $ref: "#" }] } },
    };
    expect(normalize(schema, "emit")).toStrictEqual({ result: schema, issues: [] });
    const { $schema: _, ...pulled } = schema;
    expect(normalize(schema, "pull").result).toStrictEqual(pulled);
  });
});

describe("what normalising reports", () => {
  it("keeps unknown keywords and formats as annotations, quietly for x- and example", () => {
    const { result, issues } = normalize({
      type: "object",
      properties: {
        id: { type: "string", format: "objectid", "x-order": 1, example: "5f1", widget: "text" },
      },
    });
    expect(result).toStrictEqual({
      type: "object",
      properties: {
        id: { type: "string", format: "objectid", "x-order": 1, example: "5f1", widget: "text" },
      },
    });
    expect(issues).toStrictEqual([
      'MCPG121 /properties/id/format format "objectid" is not one the validators know; kept as an annotation, not checked',
      'MCPG120 /properties/id/widget keyword "widget" is not JSON Schema 2020-12; kept as an annotation, it validates nothing',
    ]);
  });

  it("never fetches a remote $ref: pull keeps it, emit drops it, both warn", () => {
    const schema = {
      type: "object",
      properties: { geo: { $ref: "https://example.com/geo.json", description: "where" } },
    };
    const pulled = normalize(schema, "pull");
    const emitted = normalize(schema, "emit");
    expect(pulled.result).toStrictEqual(schema);
    expect(emitted.result).toStrictEqual({ type: "object", properties: { geo: { description: "where" } } });
    const warning =
      'MCPG122 /properties/geo/$ref $ref "https://example.com/geo.json" is not local, and mcp-gen never fetches schemas; typed as unknown, accepts any value';
    expect(pulled.issues).toStrictEqual([warning]);
    expect(emitted.issues).toStrictEqual([warning]);
  });

  it("reports a local $ref that points nowhere", () => {
    expect(
      normalize({ type: "object", properties: { a: { $ref: "#/definitions/Missing" } } }).issues,
    ).toStrictEqual([
      'MCPG122 /properties/a/$ref $ref "#/definitions/Missing" points to nothing in this schema; typed as unknown, accepts any value',
    ]);
  });

  it("names the tool and the contract pointer, as written for hand-written contracts", () => {
    const { warnings } = normalizeContract(
      {
        server: "legacy",
        tools: [
          {
            name: "find",
            inputSchema: {
              $schema: DRAFT_07,
              type: "object",
              properties: { q: { $ref: "#/definitions/Q" } },
              definitions: { Q: { type: "string", format: "lucene" } },
            },
          },
        ],
      },
      { file: "schemas/legacy.tools.json", mode: "emit" },
    );
    expect(warnings.map(formatDiagnostic)).toStrictEqual([
      'warning MCPG121: tool "find": format "lucene" is not one the validators know; kept as an annotation, not checked\n' +
        "  at schemas/legacy.tools.json /tools/0/inputSchema/definitions/Q/format\n" +
        "  fix: use a format the validators know (date-time, email, uri, uuid …) or a pattern",
    ]);
  });
});
