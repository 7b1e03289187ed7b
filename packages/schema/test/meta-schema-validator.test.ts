import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import standaloneModule from "ajv/dist/standalone/index.js";
import { describe, expect, it } from "vitest";
import { createAjv } from "../src/ajv.ts";
import { metaSchemaErrors } from "../src/meta-schema.ts";
import { metaSchemaValidator } from "../src/meta-schema-validator.ts";

// ajv's standalone module is CommonJS; its default export arrives as the module object under NodeNext.
const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ??
  standaloneModule) as unknown as (ajv: unknown, validate: unknown) => string;
const META_2020 = "https://json-schema.org/draft/2020-12/schema";
const GENERATED = fileURLToPath(new URL("../src/meta-schema-validator.ts", import.meta.url));

/**
 * The code of `src/meta-schema-validator.ts`: JSON Schema 2020-12's meta-schema compiled by an Ajv
 * with the options of `createAjv({ source: false })` (the one `metaSchemaErrors` used to compile it
 * with at every build), written out as standalone code inside a factory.
 */
function generate(): string {
  const ajv = createAjv({ source: false });
  // the same options, plus the source Ajv keeps for standalone code (read when it compiles)
  Object.assign(ajv.opts.code, { source: true, esm: true, lines: false });
  const validate = ajv.getSchema(META_2020);
  if (!validate) throw new Error("Ajv has no 2020-12 meta-schema");
  const code = standaloneCode(ajv, validate);
  const entry = /export default (\w+);/.exec(code)?.[1];
  if (!entry) throw new Error("no default export in Ajv's standalone code");
  const modules: string[] = [];
  const body = code
    .replace(/^"use strict";export const validate = \w+;export default \w+;/, "")
    .replace(/require\("([^"]+)"\)/g, (_, name: string) => {
      if (!modules.includes(name)) modules.push(name);
      return `ajvRuntime${modules.indexOf(name)}`;
    });
  const version = (
    JSON.parse(readFileSync(new URL("../../../node_modules/ajv/package.json", import.meta.url), "utf8")) as {
      version: string;
    }
  ).version;
  return [
    "// @ts-nocheck",
    `// generated from Ajv ${version}'s JSON Schema 2020-12 meta-schema — do not edit. Regenerate with:`,
    "// npx vitest run packages/schema/test/meta-schema-validator.test.ts -u",
    ...modules.map((name, i) => `import * as ajvModule${i} from "${name}.js";`),
    "",
    "// Ajv's runtime helpers are CommonJS modules exporting `default`: Node hands the module object as",
    "// the default export, bundlers and vite the `default` itself; the code reads `.default` of either.",
    "const required = (ns: any) => {",
    "  const m = ns.default ?? ns;",
    '  return typeof m === "function" ? { default: m } : m;',
    "};",
    ...modules.map((_, i) => `const ajvRuntime${i} = required(ajvModule${i});`),
    "",
    "type MetaValidate = ((schema: unknown) => boolean) & { errors?: { instancePath: string; message?: string; keyword: string }[] | null };",
    "let compiled: MetaValidate | undefined;",
    "",
    "/** The validator Ajv's `validateSchema` runs for a 2020-12 schema, compiled ahead of time (its first call builds it). */",
    "export function metaSchemaValidator(): MetaValidate {",
    "  if (compiled) return compiled;",
    `  ${body}`,
    `  compiled = ${entry};`,
    "  return compiled;",
    "}",
    "",
  ].join("\n");
}

/** Schemas the meta-schema takes and rejects, for every kind of keyword it checks. */
const SAMPLES: unknown[] = [
  true,
  false,
  {},
  "not a schema",
  { type: "object", properties: { a: { type: "string", minLength: 1 } }, required: ["a"] },
  { type: "strin" },
  { type: ["string", 3] },
  { properties: { a: { minimum: "x" } } },
  { $defs: { a: { type: ["string", 3] } }, $ref: "#/$defs/a" },
  { items: [{}] },
  { prefixItems: [{ type: "number" }, true], items: false },
  { required: "a" },
  { required: ["a", "a"] },
  { anyOf: [] },
  { oneOf: [{ type: "null" }, { enum: [] }] },
  { enum: [1, 1] },
  { pattern: "(" },
  { pattern: 3 },
  { $id: "not a uri", $anchor: "1bad" },
  { format: "email", description: 3, deprecated: "yes" },
  { additionalProperties: { not: { const: null } }, patternProperties: { "^x-": 4 } },
  { dependentRequired: { a: "b" }, dependentSchemas: { a: [] } },
  { minItems: -1, maxLength: 1.5, multipleOf: 0 },
  JSON.parse('{ "if": { "type": "string" }, "then": 1, "else": {} }'),
  { unevaluatedProperties: false, contains: { type: "integer" }, minContains: "2" },
  { $schema: META_2020, type: "object" },
  { "x-mcp-header": "Region", type: "string" },
];

describe("the precompiled 2020-12 meta-schema validator", () => {
  it("is the code Ajv compiles from its meta-schema (regenerated with -u when Ajv changes)", async () => {
    await expect(generate()).toMatchFileSnapshot(GENERATED);
  });

  it("accepts and rejects what Ajv's validateSchema does, with the same errors", () => {
    const ajv = createAjv({ source: false });
    const validate = metaSchemaValidator();
    for (const sample of SAMPLES) {
      const expected = ajv.validateSchema(sample as object) ? [] : ajv.errors;
      const actual = validate(sample) ? [] : validate.errors;
      expect({ sample, errors: actual }).toStrictEqual({ sample, errors: expected });
    }
  });

  it("backs metaSchemaErrors, which still reports Ajv's wording with pointers", () => {
    expect(metaSchemaErrors({ type: "object", properties: { n: { type: "integr" } } })).toStrictEqual([
      { instancePath: "/properties/n/type", message: "must be equal to one of the allowed values" },
      { instancePath: "/properties/n/type", message: "must be array" },
      { instancePath: "/properties/n/type", message: "must match a schema in anyOf" },
    ]);
  });

  it("leaves a schema naming another meta-schema to Ajv (which knows only 2020-12 here)", () => {
    expect(() =>
      metaSchemaErrors({ $schema: "http://json-schema.org/draft-07/schema#", type: "string" }),
    ).toThrow(/no schema with key or ref "http:\/\/json-schema.org\/draft-07\/schema#"/);
  });
});
