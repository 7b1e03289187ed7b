import { createAjv, declareAnnotations, strictNote } from "@mcp-gen/schema";
import codegenModule from "ajv/dist/compile/codegen/index.js";
import standaloneModule from "ajv/dist/standalone/index.js";
import { describe, expect, it } from "vitest";
import { compileShapes } from "../../src/emit/validators.ts";

const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ??
  standaloneModule) as typeof import("ajv/dist/standalone/index.js").default;
const { ValueScope } = codegenModule as typeof import("ajv/dist/compile/codegen/index.js");

/** Ajv's public way, one shape at a time in a fresh name scope: `addSchema`, `getSchema`, standalone code. */
function viaAddSchema(json: string): { source: string; notes: string[] } {
  const notes: string[] = [];
  const ajv = createAjv({ source: true, log: (m) => notes.push(strictNote(m).message) });
  const schema = JSON.parse(json);
  declareAnnotations(ajv, schema);
  const scoped = ajv as unknown as { scope: InstanceType<typeof ValueScope> };
  const { prefixes, es5, lines } = scoped.scope.opts;
  scoped.scope = new ValueScope({ scope: {}, prefixes, es5, lines });
  ajv.addSchema(schema, "mcp-gen:shape", undefined, false);
  return { source: standaloneCode(ajv, ajv.getSchema("mcp-gen:shape")!), notes };
}

/** Schemas whose compilation depends on how they are registered: references to the root, to definitions, anchors, ids. */
const SCHEMAS = [
  {
    type: "object",
    properties: { a: { type: "string", format: "email" }, b: { type: "integer" } },
    required: ["a"],
  },
  { type: "object", properties: { child: { $ref: "#" }, name: { type: "string" } } },
  {
    type: "object",
    properties: { node: { $ref: "#/$defs/Node" } },
    $defs: {
      Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" }, v: { type: "number" } } },
    },
  },
  { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false, minItems: 1 },
  { $defs: { A: { $anchor: "a", type: "string" } }, type: "object", properties: { x: { $ref: "#a" } } },
  {
    $id: "https://example.com/s",
    type: "object",
    properties: { x: { $ref: "#/$defs/X" } },
    $defs: { X: {} },
  },
  { type: "object", properties: { $id: { type: "string" } }, additionalProperties: false },
  { type: "string", pattern: "^[a-z]+$", "x-vendor": 1 },
];

describe("compileShapes", () => {
  it("gives the code and strict notes Ajv's addSchema path gives, with or without ids, anchors and recursion", () => {
    const jsons = SCHEMAS.map((s) => JSON.stringify(s));
    const compiled = new Map(compileShapes(jsons));
    for (const json of jsons) {
      const shape = compiled.get(json)!;
      const reference = viaAddSchema(json);
      expect({
        json,
        code: `export const validate = ${shape.root};export default ${shape.root};${shape.code}`,
      }).toStrictEqual({
        json,
        code: reference.source.replace(/^"use strict";/, ""),
      });
      expect(shape.notes.map((n) => n.message)).toStrictEqual(reference.notes);
    }
  });
});
