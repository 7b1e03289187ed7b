import type { JsonSchema } from "../contract/types.ts";
import { propertyKey } from "./names.ts";
import { jsdoc } from "./writer.ts";

const isObject = (v: unknown): v is JsonSchema => v !== null && typeof v === "object" && !Array.isArray(v);

export interface PrintOptions {
  /** Returns the TypeScript name of a `$ref`, or `undefined` when it cannot be resolved. */
  resolveRef(ref: string): string | undefined;
  /** Called for a schema part that cannot be typed (it becomes `unknown`). */
  warn(pointer: string, message: string): void;
}

const DOC_KEYWORDS = [
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "uniqueItems",
];

/** JSDoc lines of a schema: description, constraints, default, deprecation. */
export function docLines(schema: unknown): string[] {
  if (!isObject(schema)) return [];
  const lines: string[] = [];
  if (typeof schema.description === "string") lines.push(schema.description);
  for (const k of DOC_KEYWORDS)
    if (schema[k] !== undefined) lines.push(`@${k} ${schema[k] === true ? "" : String(schema[k])}`.trimEnd());
  if (schema.default !== undefined) lines.push(`@default ${JSON.stringify(schema.default)}`);
  if (schema.deprecated === true) lines.push("@deprecated");
  return lines;
}

const literal = (v: unknown) => (v === null ? "null" : JSON.stringify(v));
const union = (parts: string[]) => {
  const unique = [...new Set(parts)];
  if (unique.includes("unknown")) return "unknown";
  return unique.length === 0 ? "never" : unique.join(" | ");
};
const wrap = (t: string) => (/[|&]/.test(t) && !/^\{[\s\S]*\}$/.test(t) ? `(${t})` : t);

/** Prints the TypeScript type of a JSON Schema (2020-12 or draft-07 keywords). */
export function schemaToTs(schema: unknown, pointer: string, options: PrintOptions, depth = 0): string {
  if (schema === true || (isObject(schema) && Object.keys(schema).every((k) => IGNORED.has(k))))
    return "unknown";
  if (schema === false) return "never";
  if (!isObject(schema)) {
    options.warn(pointer, "is not a schema");
    return "unknown";
  }
  if (typeof schema.$ref === "string") {
    const name = options.resolveRef(schema.$ref);
    if (name) return name;
    options.warn(`${pointer}/$ref`, `cannot resolve $ref "${schema.$ref}"; typed as unknown`);
    return "unknown";
  }
  if ("const" in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal));
  for (const key of ["anyOf", "oneOf"] as const) {
    const list = schema[key];
    if (Array.isArray(list)) {
      const base = withoutKey(schema, key);
      const baseType = hasShape(base) ? wrap(schemaToTs(base, pointer, options, depth)) : undefined;
      const members = list.map((s, i) => schemaToTs(s, `${pointer}/${key}/${i}`, options, depth));
      const joined = union(members);
      return baseType && baseType !== "unknown" ? `${baseType} & (${joined})` : joined;
    }
  }
  if (Array.isArray(schema.allOf)) {
    const base = withoutKey(schema, "allOf");
    const parts = schema.allOf.map((s, i) => wrap(schemaToTs(s, `${pointer}/allOf/${i}`, options, depth)));
    if (hasShape(base)) parts.unshift(wrap(schemaToTs(base, pointer, options, depth)));
    return [...new Set(parts.filter((p) => p !== "unknown"))].join(" & ") || "unknown";
  }
  const types = Array.isArray(schema.type)
    ? schema.type
    : schema.type === undefined
      ? inferTypes(schema)
      : [schema.type];
  if (types.length === 0) {
    const unsupported = Object.keys(schema).filter((k) => !IGNORED.has(k) && !DOC_KEYWORDS.includes(k));
    if (unsupported.length > 0)
      options.warn(pointer, `cannot type keyword(s) ${unsupported.join(", ")}; typed as unknown`);
    return "unknown";
  }
  return union(types.map((t) => typeOfType(String(t), schema, pointer, options, depth)));
}

const IGNORED = new Set([
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "$schema",
  "$id",
  "$comment",
  "$defs",
  "definitions",
  "readOnly",
  "writeOnly",
  "$anchor",
]);

function hasShape(schema: JsonSchema): boolean {
  return ["type", "properties", "items", "prefixItems", "additionalProperties", "required", "$ref"].some(
    (k) => k in schema,
  );
}

function withoutKey(schema: JsonSchema, key: string): JsonSchema {
  const { [key]: _, ...rest } = schema;
  return rest;
}

/** A schema without `type` still has one when its keywords say so (`properties` → object …). */
function inferTypes(schema: JsonSchema): string[] {
  if ("properties" in schema || "additionalProperties" in schema || "required" in schema) return ["object"];
  if ("items" in schema || "prefixItems" in schema) return ["array"];
  return [];
}

function typeOfType(
  type: string,
  schema: JsonSchema,
  pointer: string,
  options: PrintOptions,
  depth: number,
): string {
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      return arrayType(schema, pointer, options, depth);
    case "object":
      return objectType(schema, pointer, options, depth);
    default:
      options.warn(`${pointer}/type`, `unknown type "${type}"; typed as unknown`);
      return "unknown";
  }
}

function arrayType(schema: JsonSchema, pointer: string, options: PrintOptions, depth: number): string {
  const prefix = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : undefined;
  if (prefix) {
    const prefixKey = Array.isArray(schema.prefixItems) ? "prefixItems" : "items";
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    const parts = prefix.map(
      (s, i) => `${schemaToTs(s, `${pointer}/${prefixKey}/${i}`, options, depth)}${i >= min ? "?" : ""}`,
    );
    const restSchema = prefixKey === "prefixItems" ? schema.items : schema.additionalItems;
    if (restSchema !== undefined && restSchema !== false) {
      parts.push(`...${wrap(schemaToTs(restSchema, `${pointer}/items`, options, depth))}[]`);
    }
    return `[${parts.join(", ")}]`;
  }
  if (schema.items === undefined) return "unknown[]";
  return `${wrap(schemaToTs(schema.items, `${pointer}/items`, options, depth))}[]`;
}

function objectType(schema: JsonSchema, pointer: string, options: PrintOptions, depth: number): string {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const additional = schema.additionalProperties;
  const names = Object.keys(properties);
  if (names.length === 0) {
    if (additional === false) return "Record<string, never>";
    if (additional === undefined || additional === true) return "Record<string, unknown>";
    return `Record<string, ${schemaToTs(additional, `${pointer}/additionalProperties`, options, depth)}>`;
  }
  const indent = "  ".repeat(depth + 1);
  let out = "{\n";
  const propertyTypes: string[] = [];
  for (const name of names) {
    const sub = properties[name];
    const t = schemaToTs(sub, `${pointer}/properties/${escapeToken(name)}`, options, depth + 1);
    propertyTypes.push(t);
    out += jsdoc(docLines(sub), indent);
    out += `${indent}${propertyKey(name)}${required.has(name) ? "" : "?"}: ${t};\n`;
  }
  if (additional !== false) {
    const rest =
      additional === undefined || additional === true
        ? "unknown"
        : schemaToTs(additional, `${pointer}/additionalProperties`, options, depth + 1);
    const index =
      rest === "unknown"
        ? "unknown"
        : union([rest, ...propertyTypes, ...(required.size < names.length ? ["undefined"] : [])]);
    out += `${indent}[key: string]: ${index};\n`;
  }
  return `${out}${"  ".repeat(depth)}}`;
}

function escapeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}
