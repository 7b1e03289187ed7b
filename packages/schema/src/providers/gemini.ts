import type { ContractTool, JsonSchema } from "../contract.ts";
import { escapeToken, isNeverSchema, isSchemaObject, narrowToType, typesOf } from "../schema-utils.ts";
import { inlineRefsShared } from "./inline.ts";
import { mergeAllOf } from "./merge.ts";
import { type Conversion, constraintText, describeIn } from "./model.ts";
import type { Plan } from "./plan.ts";
import { describeRootRules } from "./root-rules.ts";
import { GEMINI_JSON_SCHEMA, GEMINI_SCHEMA } from "./rules.ts";

const SILENT = new Set(["$schema", "$id", "$comment", "$anchor", "readOnly", "writeOnly"]);
/** Keywords `typed` leaves to `convert` or drops (one set, not an array spread per keyword). */
const HANDLED = new Set([
  "type",
  "const",
  "enum",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  ...SILENT,
]);
const TYPE_NAME: Record<string, string> = {
  string: "STRING",
  number: "NUMBER",
  integer: "INTEGER",
  boolean: "BOOLEAN",
  array: "ARRAY",
  object: "OBJECT",
};

/**
 * Gemini function declaration with `parameters` in Gemini's OpenAPI schema subset. Type arrays
 * become `nullable`, `const` a one-value `enum` (strings) or a description; open objects and
 * untyped values travel as JSON text (parsed back by `normalizeArguments`); recursive types are expanded a few levels, then travel as JSON text.
 */
export function toGemini(
  tool: ContractTool,
  conversion: Conversion,
): { declaration?: Record<string, unknown>; plan?: Plan } {
  const inlined = inlineRefsShared(tool.inputSchema);
  conversion.bounded(inlined.cuts);
  const root = describeRootRules(inlined.schema, conversion);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    if (key in root)
      conversion.fail(
        `/${key}`,
        "gemini/parameters-object",
        `parameters must be one OBJECT schema, not ${key}`,
      );
  }
  const declaration: Record<string, unknown> = { name: tool.name };
  if (tool.description) declaration.description = tool.description;
  const properties = isSchemaObject(root.properties) ? root.properties : {};
  if (Object.keys(properties).length === 0) return { declaration };
  const result = convert(root, "", conversion);
  declaration.parameters = result.schema;
  return result.plan ? { declaration, plan: result.plan } : { declaration };
}

interface Converted {
  schema: JsonSchema;
  plan?: Plan;
}

function convert(schema: unknown, pointer: string, conversion: Conversion): Converted {
  if (schema === true || (isSchemaObject(schema) && isUntyped(schema))) {
    return encoded(
      isSchemaObject(schema) ? schema : {},
      pointer,
      conversion,
      "Any JSON value, written as JSON text",
    );
  }
  if (!isSchemaObject(schema)) {
    conversion.fail(pointer, "gemini/schema", "a `false` schema (no value allowed) cannot be expressed");
    return { schema: {} };
  }
  if (Array.isArray(schema.allOf)) {
    const merged = mergeAllOf(schema);
    if (!merged) {
      conversion.fail(
        `${pointer}/allOf`,
        "gemini/no-allOf",
        "allOf can only be expressed when every branch is an object",
      );
      return { schema: {} };
    }
    return convert(merged, pointer, conversion);
  }
  const out: JsonSchema = {};
  const sentences: string[] = [];
  let plan: Plan | undefined;
  let nullable =
    typesOf(schema).includes("null") ||
    schema.const === null ||
    (Array.isArray(schema.enum) && schema.enum.includes(null));
  const union = Array.isArray(schema.anyOf) ? "anyOf" : Array.isArray(schema.oneOf) ? "oneOf" : undefined;
  // Without `type`, `properties` or `items` still say what the value is when it is checked at all:
  // Gemini needs a type, and offering that one accepts nothing the schema rejects.
  const declared = typesOf(schema);
  const nonNull = (declared.length > 0 ? declared : impliedTypes(schema)).filter((t) => t !== "null");
  if (union) {
    if (union === "oneOf") conversion.move(pointer, "oneOf", "relaxed", "oneOf offered as anyOf");
    const list = (schema[union] as unknown[])
      .map((b, i) => ({ b, i }))
      .filter(({ b }) => !(isSchemaObject(b) && isNullOnly(b)));
    if (list.length < (schema[union] as unknown[]).length) nullable = true;
    const branches = list.map(({ b, i }) => convert(b, `${pointer}/${union}/${i}`, conversion));
    if (branches.length === 1) {
      Object.assign(out, branches[0]!.schema);
      plan = branches[0]!.plan;
    } else {
      out.anyOf = branches.map((b) => b.schema);
      if (branches.some((b) => b.plan))
        plan = { anyOf: branches.map((b, k) => ({ ...b.plan, ...keysOf(list[k]!.b) })) };
    }
  } else if (nonNull.length > 1) {
    const branches = nonNull.map((t) => convert(narrowToType(withoutDocs(schema), t), pointer, conversion));
    out.anyOf = branches.map((b) => b.schema);
  } else if (nonNull.length === 1 || "const" in schema || "enum" in schema) {
    const type = nonNull[0] ?? valueType(schema);
    if (type === "object" && !hasProperties(schema)) {
      const result = encoded(schema, pointer, conversion, "A JSON object, written as JSON text");
      if (nullable) result.schema.nullable = true;
      return result;
    }
    plan = typed(type, schema, out, sentences, pointer, conversion);
  } else {
    conversion.fail(pointer, "gemini/type", "a value that can only be null cannot be expressed");
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === "title" || key === "description" || key === "default") out[key] = value;
    else if (key === "examples" && Array.isArray(value) && value.length > 0) out.example = value[0];
    else if (key === "deprecated") sentences.push(constraintText(key, value));
  }
  if (nullable) out.nullable = true;
  describeIn(out, sentences);
  return plan ? { schema: out, plan } : { schema: out };
}

/** Converts the type-specific keywords of a schema with one (non-null) type into `out`. */
function typed(
  type: string,
  schema: JsonSchema,
  out: JsonSchema,
  sentences: string[],
  pointer: string,
  conversion: Conversion,
): Plan | undefined {
  const describe = (key: string, value: unknown) => {
    const text = constraintText(key, value);
    sentences.push(text);
    conversion.move(pointer, key, "described", text);
  };
  out.type = TYPE_NAME[type] ?? "STRING";
  const values = "const" in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : undefined;
  const nonNullValues = values?.filter((v) => v !== null);
  if (nonNullValues && type === "string" && nonNullValues.every((v) => typeof v === "string")) {
    out.enum = nonNullValues;
    out.format = "enum";
  } else if (nonNullValues)
    describe("const" in schema ? "const" : "enum", "const" in schema ? schema.const : nonNullValues);
  let plan: Plan | undefined;
  for (const [key, value] of Object.entries(schema)) {
    if (HANDLED.has(key)) continue;
    if (key === "items" && schema.prefixItems !== undefined) continue;
    if (key === "format") {
      if (out.format === undefined && GEMINI_SCHEMA.formats[out.type as string]?.includes(String(value)))
        out.format = value;
      else if (out.format === undefined) describe(key, value);
    } else if (key === "items" && isSchemaObject(value)) {
      const child = convert(value, `${pointer}/items`, conversion);
      out.items = child.schema;
      if (child.plan) plan = { ...plan, items: child.plan };
    } else if (key === "prefixItems" && Array.isArray(value)) {
      const children = value.map((s, i) => convert(s, `${pointer}/prefixItems/${i}`, conversion));
      const rest = isSchemaObject(schema.items)
        ? [convert(schema.items, `${pointer}/items`, conversion)]
        : [];
      const all = [...children, ...rest];
      const distinct = [...new Map(all.map((c) => [JSON.stringify(c.schema), c.schema])).values()];
      out.items = distinct.length === 1 ? distinct[0]! : { anyOf: distinct };
      if (children.some((c) => c.plan)) plan = { ...plan, prefixItems: children.map((c) => c.plan ?? {}) };
      if (schema.minItems === undefined) out.minItems = value.length;
      if (schema.items === false && schema.maxItems === undefined) out.maxItems = value.length;
      const text = `A tuple: item i has the type of position i in ${JSON.stringify(value.map((s) => (isSchemaObject(s) ? (s.type ?? "any") : "any")))}`;
      sentences.push(text);
      conversion.move(pointer, key, "relaxed", text);
    } else if (key === "properties" && isSchemaObject(value)) {
      const props: Record<string, unknown> = {};
      const planProps: Record<string, Plan> = {};
      for (const [name, sub] of Object.entries(value)) {
        if (isNeverSchema(sub)) {
          leftOut(`${pointer}/properties/${escapeToken(name)}`, conversion);
          continue;
        }
        const child = convert(sub, `${pointer}/properties/${escapeToken(name)}`, conversion);
        props[name] = child.schema;
        if (child.plan) planProps[name] = child.plan;
      }
      out.properties = props;
      if (Object.keys(planProps).length > 0) plan = { ...plan, properties: planProps };
    } else if (key === "required" && Array.isArray(value)) out.required = value;
    else if (key === "additionalProperties") {
      if (value !== false) describe("additionalProperties", value);
    } else if (GEMINI_SCHEMA.fields.has(key)) out[key] = value;
    else describe(key, value);
  }
  return plan;
}

/**
 * Gemini function declaration with `parametersJsonSchema`: JSON Schema restricted to the keywords
 * Gemini documents; `const` becomes a one-value `enum`, `oneOf` `anyOf`, other constraints move
 * into descriptions. References are expanded (recursive ones a few levels deep).
 */
export function toGeminiJsonSchema(
  tool: ContractTool,
  conversion: Conversion,
): Record<string, unknown> | undefined {
  const inlined = inlineRefsShared(tool.inputSchema);
  conversion.bounded(inlined.cuts);
  const declaration: Record<string, unknown> = { name: tool.name };
  if (tool.description) declaration.description = tool.description;
  declaration.parametersJsonSchema = jsonNode(describeRootRules(inlined.schema, conversion), "", conversion);
  return declaration;
}

function jsonNode(schema: unknown, pointer: string, conversion: Conversion): unknown {
  if (!isSchemaObject(schema)) return schema;
  let source = schema;
  if (Array.isArray(schema.allOf)) {
    const merged = mergeAllOf(schema);
    if (!merged) {
      conversion.fail(
        `${pointer}/allOf`,
        "gemini/no-allOf",
        "allOf can only be expressed when every branch is an object",
      );
      return {};
    }
    source = merged;
  }
  const out: JsonSchema = {};
  const sentences: string[] = [];
  for (const [key, value] of Object.entries(source)) {
    const at = `${pointer}/${key}`;
    if (key === "properties" && isSchemaObject(value)) {
      const kept = Object.entries(value).filter(([n, s]) => {
        const never = isNeverSchema(s);
        if (never) leftOut(`${at}/${escapeToken(n)}`, conversion);
        return !never;
      });
      out.properties = Object.fromEntries(
        kept.map(([n, s]) => [n, jsonNode(s, `${at}/${escapeToken(n)}`, conversion)]),
      );
    } else if (key === "items" || key === "additionalProperties") out[key] = jsonNode(value, at, conversion);
    else if (key === "anyOf" || key === "oneOf" || key === "prefixItems") {
      if (key === "oneOf") conversion.move(pointer, key, "relaxed", "oneOf offered as anyOf");
      out[key === "oneOf" ? "anyOf" : key] = (value as unknown[]).map((s, i) =>
        jsonNode(s, `${at}/${i}`, conversion),
      );
    } else if (key === "const") out.enum = [value];
    else if (GEMINI_JSON_SCHEMA.keywords.has(key)) out[key] = value;
    else if (!SILENT.has(key)) {
      const text = constraintText(key, value);
      sentences.push(text);
      conversion.move(pointer, key, "described", text);
    }
  }
  describeIn(out, sentences);
  return out;
}

function encoded(schema: JsonSchema, pointer: string, conversion: Conversion, what: string): Converted {
  const out: JsonSchema = { type: "STRING" };
  if (typeof schema.title === "string") out.title = schema.title;
  describeIn(out, [...(typeof schema.description === "string" ? [schema.description] : []), what]);
  if (schema.default !== undefined)
    out.default = schema.default === null ? null : JSON.stringify(schema.default);
  conversion.move(pointer, "type", "encoded", what);
  return { schema: out, plan: { json: true } };
}

/** The types that the keywords of a schema without `type` apply to. */
function impliedTypes(schema: JsonSchema): string[] {
  const types: string[] = [];
  if ("properties" in schema) types.push("object");
  if ("items" in schema || "prefixItems" in schema) types.push("array");
  return types;
}

function isUntyped(schema: JsonSchema): boolean {
  return ![
    "type",
    "enum",
    "const",
    "anyOf",
    "oneOf",
    "allOf",
    "properties",
    "items",
    "prefixItems",
    "$ref",
  ].some((k) => k in schema);
}

const isNullOnly = (schema: JsonSchema) => typesOf(schema).length === 1 && typesOf(schema)[0] === "null";
const hasProperties = (schema: JsonSchema) =>
  isSchemaObject(schema.properties) && Object.values(schema.properties).some((s) => !isNeverSchema(s));

function valueType(schema: JsonSchema): string {
  const values = "const" in schema ? [schema.const] : (schema.enum as unknown[]);
  const v = values.find((x) => x !== null);
  return typeof v === "number"
    ? Number.isInteger(v)
      ? "integer"
      : "number"
    : typeof v === "boolean"
      ? "boolean"
      : "string";
}

function withoutDocs(schema: JsonSchema): JsonSchema {
  const { type: _t, description: _d, title: _ti, default: _de, examples: _e, ...rest } = schema;
  return rest;
}

function keysOf(branch: unknown): { keys?: string[] } {
  return isSchemaObject(branch) && isSchemaObject(branch.properties)
    ? { keys: Object.keys(branch.properties) }
    : {};
}

/**
 * A property that must be absent (`false`, `{ "not": {} }`): Gemini's schemas have no "no value",
 * so the property is left out of what the model is offered (the server still refuses it).
 */
function leftOut(pointer: string, conversion: Conversion): void {
  conversion.move(pointer, "not", "narrowed", "a property that must be absent is left out");
}
