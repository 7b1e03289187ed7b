import { readdirSync } from "node:fs";
import path from "node:path";
import { applyArgumentPlan } from "@mcp-gen/runtime/providers";
import type { Contract, Dialect, JsonSchema, Target } from "@mcp-gen/schema";
import { convertContract, createAjv, isSchemaObject, providerToolName, typesOf } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { normalizeArguments as smartHomeNormalize } from "../../../../generated/smart-home/normalize.ts";
import { readContract } from "../../src/contract/read.ts";
import { exampleValue } from "../../src/emit/example.ts";
import { contractCases } from "./cases.ts";

/**
 * Round trip: canonical arguments → what a model sends under each dialect → `normalizeArguments`
 * → the canonical arguments again. The dialect arguments are derived from the emitted dialect
 * schema (not from the normalization plan) and must validate against it.
 */
const ROOT = path.resolve(import.meta.dirname, "../../../..");

const contracts: [string, Contract, Target[] | undefined][] = [
  ...readdirSync(path.join(ROOT, "schemas")).map(
    (f) => [path.basename(f, ".tools.json"), readContract(path.join(ROOT, "schemas", f)), undefined] as const,
  ),
  ...contractCases().map((c) => [c.name, c.contract, c.targets] as const),
].map(([name, contract, targets]) => [name, contract, targets]);

/** Extra samples where the generated ones do not reach what a dialect changes. */
const EXTRA: Record<string, unknown[]> = {
  save_tree: [
    {
      root: {
        label: "a",
        children: [{ label: "b", children: [{ label: "c", children: [{ label: "d", children: [] }] }] }],
      },
    },
  ],
  "book-table": [
    {
      restaurant: "Chez Nous",
      party: 4,
      when: "2025-06-01T19:30:00Z",
      notes: { allergy: "nuts" },
      anything: [1, { two: 2 }],
      payment: { method: "card", last4: "4242" },
    },
  ],
};

const ajv = createAjv({ source: false });

describe.each(contracts)("round trip through every dialect: %s", (_name, contract, targets) => {
  const conversion = convertContract(contract, targets ?? ["anthropic", "openai", "gemini"]);
  const cases = contract.tools.flatMap((tool) => {
    const samples = [
      exampleValue(tool.inputSchema, tool.inputSchema),
      exampleValue(tool.inputSchema, tool.inputSchema, { allProperties: true }),
      ...(EXTRA[tool.name] ?? []),
    ];
    return conversion.dialects.flatMap((dialect) =>
      samples.map((sample, i) => [`${tool.name} ${dialect} #${i}`, tool.name, dialect, sample] as const),
    );
  });

  it.each(cases)("%s", (_, toolName, dialect, canonical) => {
    const tool = contract.tools.find((t) => t.name === toolName)!;
    expect(ajv.validate(tool.inputSchema, canonical), ajv.errorsText()).toBe(true);
    const { found, schema, strict } = dialectSchema(
      conversion.definitions[dialect]!,
      providerToolName(dialect, toolName),
    );
    // Every tool the conversion did not refuse has a definition in every dialect.
    expect(found).toBe(true);
    const as: Dialect = dialect === "openai-strict" && !strict ? "openai" : dialect;
    const sent = schema ? asSentUnder(as, schema, canonical) : canonical;
    if (schema) expect(ajv.validate(toJsonSchema(dialect, schema), sent), ajv.errorsText()).toBe(true);
    const plan = conversion.plans[dialect]?.[toolName];
    expect(plan ? applyArgumentPlan(plan, sent) : sent).toStrictEqual(canonical);
  });
});

describe("generated normalizeArguments (smart-home)", () => {
  it("drops OpenAI strict nulls so defaults apply, and parses JSON text", () => {
    expect(
      smartHomeNormalize("openai-strict", "search_devices", '{"query":"灯","limit":null}'),
    ).toStrictEqual({
      query: "灯",
    });
    expect(
      smartHomeNormalize("gemini", "interpret_command", {
        user_input: "dim",
        device_capabilities: ["switchLevel"],
        current_state: '{"level":80}',
      }),
    ).toStrictEqual({
      user_input: "dim",
      device_capabilities: ["switchLevel"],
      current_state: { level: 80 },
    });
    expect(smartHomeNormalize("anthropic", "search_devices", { query: "x", limit: null })).toStrictEqual({
      query: "x",
      limit: null,
    });
    expect(smartHomeNormalize("openai", "no_such_tool", "not json")).toBe("not json");
  });
});

/** The input schema a dialect's definition of a tool carries, and whether it is OpenAI-strict. */
function dialectSchema(
  definitions: Record<string, unknown>[],
  tool: string,
): { found: boolean; schema?: JsonSchema; strict: boolean } {
  for (const d of definitions) {
    const fn = (d.function ?? d) as Record<string, unknown>;
    if (fn.name !== tool) continue;
    const schema = (fn.input_schema ?? fn.parameters ?? fn.parametersJsonSchema) as JsonSchema | undefined;
    return { found: true, ...(schema ? { schema } : {}), strict: fn.strict === true };
  }
  return { found: false, strict: false };
}

/**
 * What a model following the dialect schema sends for a canonical value: under OpenAI strict every
 * declared property is present (`null` where the canonical value has none); under Gemini a value
 * whose schema is STRING but which is not a string travels as JSON text.
 */
function asSentUnder(dialect: Dialect, schema: unknown, value: unknown): unknown {
  if (!isSchemaObject(schema) || value === undefined) return value;
  if (dialect === "gemini" && schema.type === "STRING" && typeof value !== "string") {
    return value === null && schema.nullable === true ? null : JSON.stringify(value);
  }
  if (value === null) return value;
  if (Array.isArray(schema.anyOf)) {
    const branch = schema.anyOf.find((b) => isSchemaObject(b) && fits(b, value)) ?? schema.anyOf[0];
    return asSentUnder(dialect, branch, value);
  }
  if (Array.isArray(value)) return value.map((v) => asSentUnder(dialect, schema.items, v));
  if (typeof value === "object" && isSchemaObject(schema.properties)) {
    const out: Record<string, unknown> = {};
    for (const [key, sub] of Object.entries(schema.properties)) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = asSentUnder(dialect, sub, v);
      else if (dialect === "openai-strict") out[key] = null;
    }
    return out;
  }
  return value;
}

function fits(branch: JsonSchema, value: unknown): boolean {
  const types = typesOf(branch).map((t) => t.toLowerCase());
  const actual =
    value === null
      ? "null"
      : Array.isArray(value)
        ? "array"
        : typeof value === "number"
          ? "number"
          : typeof value;
  if (types.length > 0 && !types.some((t) => t === actual || (t === "integer" && Number.isInteger(value))))
    return false;
  if (!isSchemaObject(branch.properties)) return true;
  return (
    typeof value === "object" &&
    value !== null &&
    Object.keys(value).every((k) => k in (branch.properties as object))
  );
}

/** Gemini's OpenAPI-style `Schema` as JSON Schema, to validate what is sent under it. */
function toJsonSchema(dialect: Dialect, schema: unknown): JsonSchema {
  if (!isSchemaObject(schema)) return {};
  if (dialect !== "gemini") return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "type") out.type = String(value).toLowerCase();
    else if (key === "properties" && isSchemaObject(value))
      out.properties = Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, toJsonSchema(dialect, v)]),
      );
    else if (key === "items") out.items = toJsonSchema(dialect, value);
    else if (key === "anyOf") out.anyOf = (value as unknown[]).map((v) => toJsonSchema(dialect, v));
    else if (!["nullable", "format", "example", "propertyOrdering"].includes(key)) out[key] = value;
  }
  if (schema.nullable === true) return { anyOf: [out, { type: "null" }] };
  return out;
}
