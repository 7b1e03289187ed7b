import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DIALECTS, type Dialect } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { checkDialectFile, DIALECT_FILES } from "../../src/lint/rules/index.ts";

const ROOT = path.resolve(import.meta.dirname, "../../../..");
const DIALECT_OF = Object.fromEntries(Object.entries(DIALECT_FILES).map(([d, f]) => [f, d as Dialect]));

/** Every `providers/` folder the build emitted: the examples' and the fixtures' goldens. */
function providerDirs(): string[] {
  const dirs: string[] = [];
  for (const base of ["generated", "packages/codegen/test/fixtures/contracts/expected"]) {
    for (const server of readdirSync(path.join(ROOT, base))) {
      const dir = path.join(ROOT, base, server, "providers");
      try {
        readdirSync(dir);
        dirs.push(dir);
      } catch {}
    }
  }
  return dirs;
}

describe("the rule checker of each provider, over every emitted file", () => {
  const files = providerDirs().flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f in DIALECT_OF)
      .map((f) => path.join(dir, f)),
  );

  it("finds emitted files of every dialect", () => {
    const dialects = new Set(files.map((f) => DIALECT_OF[path.basename(f)]));
    expect([...dialects].sort()).toStrictEqual([...DIALECTS].sort());
  });

  it.each(files.map((f) => [path.relative(ROOT, f), f]))("%s breaks no rule", (_, file) => {
    const dialect = DIALECT_OF[path.basename(file)]!;
    expect(checkDialectFile(dialect, JSON.parse(readFileSync(file, "utf8")))).toStrictEqual([]);
  });
});

/** Violations of a list of tools (or of one Gemini `Tool`) as `rule pointer` lines. */
const rules = (dialect: Dialect, tools: unknown) =>
  checkDialectFile(dialect, { tools: Array.isArray(tools) ? tools : [tools] }).map(
    (v) => `${v.rule} ${v.pointer}`,
  );

describe("rule checkers catch what each provider rejects", () => {
  it("anthropic: names, top-level combinators, $ref, property names", () => {
    const tools = [
      {
        name: "read.file",
        input_schema: {
          type: "object",
          anyOf: [{ required: ["a"] }],
          properties: { "a b": { $ref: "#/$defs/X" } },
        },
      },
      { name: "ok", input_schema: { type: "string" } },
      { name: "ok", input_schema: { type: "object" } },
    ];
    expect(rules("anthropic", tools)).toStrictEqual([
      "anthropic/tool-name /tools/0/name",
      "anthropic/no-top-level-combinator /tools/0/input_schema/anyOf",
      "anthropic/property-name /tools/0/input_schema/properties",
      "anthropic/no-ref /tools/0/input_schema/properties/a b/$ref",
      "anthropic/input-schema-object /tools/1/input_schema",
      "anthropic/unique-names /tools/2/name",
    ]);
  });

  it("openai strict: open objects, optional properties, unsupported keywords, depth", () => {
    const nest = (depth: number): object =>
      depth === 0
        ? { type: "string" }
        : {
            type: "object",
            properties: { n: nest(depth - 1) },
            required: ["n"],
            additionalProperties: false,
          };
    const tools = [
      {
        type: "function",
        function: {
          name: "t",
          strict: true,
          parameters: {
            type: "object",
            properties: { a: { type: "string", minLength: 1, default: "x" }, b: { type: "object" } },
            required: ["a"],
          },
        },
      },
      { type: "function", function: { name: "deep", strict: true, parameters: nest(6) } },
      {
        type: "function",
        function: { name: "lax", strict: false, parameters: { type: "object", properties: { b: {} } } },
      },
    ];
    expect(rules("openai-strict", tools)).toStrictEqual([
      "openai-strict/closed-objects /tools/0/function/parameters",
      "openai-strict/all-required /tools/0/function/parameters/required",
      "openai-strict/keyword /tools/0/function/parameters/properties/a/minLength",
      "openai-strict/keyword /tools/0/function/parameters/properties/a/default",
      "openai-strict/closed-objects /tools/0/function/parameters/properties/b",
      "openai-strict/max-depth /tools/1/function/parameters/properties/n/properties/n/properties/n/properties/n/properties/n",
    ]);
  });

  it("gemini parameters: fields, types, enums, formats, empty objects", () => {
    const tool = {
      functionDeclarations: [
        {
          name: "2fa",
          parameters: {
            type: "OBJECT",
            properties: {
              a: { type: "string", additionalProperties: false },
              b: { type: "INTEGER", enum: [1, 2] },
              c: { type: "STRING", format: "email", const: "x" },
              d: { type: "OBJECT", properties: {} },
            },
            required: ["a", "z"],
          },
        },
      ],
    };
    expect(rules("gemini", tool)).toStrictEqual([
      "gemini/tool-name /tools/0/functionDeclarations/0/name",
      "gemini/required-declared /tools/0/functionDeclarations/0/parameters/required",
      "gemini/schema-field /tools/0/functionDeclarations/0/parameters/properties/a/additionalProperties",
      "gemini/type /tools/0/functionDeclarations/0/parameters/properties/a/type",
      "gemini/enum-string /tools/0/functionDeclarations/0/parameters/properties/b/enum",
      "gemini/schema-field /tools/0/functionDeclarations/0/parameters/properties/c/const",
      "gemini/format /tools/0/functionDeclarations/0/parameters/properties/c/format",
      "gemini/object-properties /tools/0/functionDeclarations/0/parameters/properties/d/properties",
    ]);
  });

  it("gemini parametersJsonSchema: only documented keywords", () => {
    const tool = {
      functionDeclarations: [
        {
          name: "t",
          parametersJsonSchema: {
            type: "object",
            properties: { a: { type: "integer", exclusiveMinimum: 0 }, b: { const: 1 } },
            $defs: {},
          },
        },
      ],
    };
    expect(rules("gemini-json-schema", tool)).toStrictEqual([
      "gemini/json-schema-keyword /tools/0/functionDeclarations/0/parametersJsonSchema/$defs",
      "gemini/json-schema-keyword /tools/0/functionDeclarations/0/parametersJsonSchema/properties/a/exclusiveMinimum",
      "gemini/json-schema-keyword /tools/0/functionDeclarations/0/parametersJsonSchema/properties/b/const",
    ]);
  });
});

it("knows the same dialects as the runtime that normalizes their arguments", async () => {
  const runtime = await import("@mcp-gen/runtime/providers");
  expect([...DIALECTS]).toStrictEqual([...runtime.DIALECTS]);
});
