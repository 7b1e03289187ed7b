import { ajvRequire } from "@mcp-gen/runtime/ajv-runtime";
import { createAjv, declareAnnotations } from "@mcp-gen/schema";
import standaloneModule from "ajv/dist/standalone/index.js";
import { describe, expect, it } from "vitest";

const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ??
  standaloneModule) as typeof import("ajv/dist/standalone/index.js").default;

const SCHEMA = { type: "object", properties: { n: { type: "string", minLength: 2 } }, required: ["n"] };

describe("the Ajv that compiles standalone code", () => {
  it("keeps the validators' code for standalone output but never evaluates it", () => {
    const ajv = createAjv({ source: true });
    ajv.addSchema(SCHEMA, "s");
    expect(() => ajv.getSchema("s")!({ n: "ab" })).toThrow("compiled for standalone code only");
    const body = standaloneCode(ajv, { validate: "s" })
      .replace(/^"use strict";/, "")
      .replace(/export const (\w+) = (\w+);/g, "exports.$1 = $2;");
    const exports: { validate?: (data: unknown) => boolean } = {};
    new Function("require", "exports", body)(ajvRequire, exports);
    expect([
      exports.validate!({ n: "ab" }),
      exports.validate!({ n: "a" }),
      exports.validate!({}),
    ]).toStrictEqual([true, false, false]);
  });

  it("still checks the schemas it is given against the meta-schema", () => {
    const ajv = createAjv({ source: true });
    expect(() => ajv.addSchema({ type: "strnig" }, "bad")).toThrow(/schema is invalid: data\/type/);
  });
});

describe("declareAnnotations", () => {
  it("declares vendor keywords and unknown formats once, and leaves Ajv's own annotations alone", () => {
    const ajv = createAjv({ source: true });
    const added: string[] = [];
    const addKeyword = ajv.addKeyword.bind(ajv);
    ajv.addKeyword = ((definition: { keyword: string }) => {
      added.push(definition.keyword);
      return addKeyword(definition);
    }) as typeof ajv.addKeyword;
    const schema = {
      type: "object",
      description: "d",
      "x-vendor": 1,
      properties: { a: { type: "string", format: "my-format", default: "x", "x-vendor": 2 } },
    };
    declareAnnotations(ajv, schema);
    declareAnnotations(ajv, { ...schema, "x-other": true });
    expect(added).toStrictEqual(["x-vendor", "x-other"]);
    ajv.addSchema(schema, "s");
    expect(typeof ajv.getSchema("s")).toBe("function");
    expect("my-format" in ajv.formats).toBe(true);
  });
});
