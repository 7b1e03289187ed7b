import type { JsonSchema } from "./contract.ts";

export const isSchemaObject = (v: unknown): v is JsonSchema =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** Escapes one JSON pointer token (`~` → `~0`, `/` → `~1`). */
export function escapeToken(token: string): string {
  if (!token.includes("~") && !token.includes("/")) return token;
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Resolves a local `$ref` (`#`, `#/$defs/X`, `#/definitions/X`, any `#/…` pointer, an `#anchor`)
 * against the root schema it appears in; `undefined` when it points nowhere.
 */
export function resolveLocalRef(root: JsonSchema, ref: string): unknown {
  if (ref === "#") return root;
  if (/^#[A-Za-z_][-A-Za-z0-9._]*$/.test(ref)) return anchored(root, ref.slice(1));
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** The types a schema allows, as a list (`type` may be a string or an array; absent → empty). */
export function typesOf(schema: JsonSchema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.map(String);
  return [];
}

/** Keywords whose value is one subschema. */
export const SINGLE_SCHEMA_KEYWORDS = [
  "items",
  "additionalItems",
  "additionalProperties",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
] as const;
/** Keywords whose value is an array of subschemas. */
export const ARRAY_SCHEMA_KEYWORDS = ["anyOf", "oneOf", "allOf", "prefixItems"] as const;
/** Keywords whose value maps names to subschemas. */
export const MAP_SCHEMA_KEYWORDS = [
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
] as const;

const SINGLE = new Set<string>(SINGLE_SCHEMA_KEYWORDS);
const ARRAY = new Set<string>(ARRAY_SCHEMA_KEYWORDS);
const MAP = new Set<string>(MAP_SCHEMA_KEYWORDS);

/**
 * A copy of `schema` with every direct subschema replaced by `fn(subschema, pointerSuffix)`;
 * data keywords (`enum`, `const`, `default` …) are copied as they are.
 */
export function mapSubschemas(schema: JsonSchema, fn: (sub: unknown, suffix: string) => unknown): JsonSchema {
  const out: JsonSchema = {};
  for (const key in schema) {
    const value = schema[key];
    if (SINGLE.has(key) && !Array.isArray(value)) out[key] = fn(value, `/${key}`);
    else if ((ARRAY.has(key) || key === "items") && Array.isArray(value))
      out[key] = value.map((v, i) => fn(v, `/${key}/${i}`));
    else if (MAP.has(key) && isSchemaObject(value)) {
      const mapped: JsonSchema = {};
      for (const name in value) setOwn(mapped, name, fn(value[name], `/${key}/${escapeToken(name)}`));
      out[key] = mapped;
    } else out[key] = value;
  }
  return out;
}

/** `target[name] = value` as an own property, also for a property named `__proto__`. */
export function setOwn(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === "__proto__")
    Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}

/** Calls `fn(subschema, pointerSuffix)` for every direct subschema of `schema`, as `mapSubschemas` visits them. */
export function forEachSubschema(schema: JsonSchema, fn: (sub: unknown, suffix: string) => void): void {
  for (const key in schema) {
    const value = schema[key];
    if (SINGLE.has(key) && !Array.isArray(value)) fn(value, `/${key}`);
    else if ((ARRAY.has(key) || key === "items") && Array.isArray(value))
      for (let i = 0; i < value.length; i++) fn(value[i], `/${key}/${i}`);
    else if (MAP.has(key) && isSchemaObject(value))
      for (const name in value) fn(value[name], `/${key}/${escapeToken(name)}`);
  }
}

/** Keywords that only constrain values of one JSON type (`integer` shares those of `number`). */
const TYPE_KEYWORDS: Record<string, readonly string[]> = {
  object: [
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
  ],
  array: [
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedItems",
  ],
  string: [
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
  ],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
};

/**
 * The schema with `type` set to one of its types and without the keywords that only apply to
 * values of its other types (they constrain nothing of this one).
 *
 * @example
 * narrowToType({ type: ["string", "number"], minLength: 2, minimum: 0 }, "number"); // → { type: "number", minimum: 0 }
 */
export function narrowToType(schema: JsonSchema, type: string): JsonSchema {
  const own = TYPE_KEYWORDS[type === "integer" ? "number" : type] ?? [];
  const others = new Set(
    Object.values(TYPE_KEYWORDS)
      .flat()
      .filter((k) => !own.includes(k)),
  );
  const out: JsonSchema = { type };
  for (const [key, value] of Object.entries(schema)) if (key !== "type" && !others.has(key)) out[key] = value;
  return out;
}

/** The subschema of `root` whose `$anchor` is `name` (`$ref: "#name"`), if any. */
function anchored(root: JsonSchema, name: string): unknown {
  if (root.$anchor === name) return root;
  let found: unknown;
  forEachSubschema(root, (sub) => {
    if (found === undefined && isSchemaObject(sub)) found = anchored(sub, name);
  });
  return found;
}

/**
 * A schema no value fits: `false`, or `{ "not": {} }` with annotations only. mcp-gen writes a
 * property that must be absent (`name?: never` in TypeScript) so; dialects that cannot say "absent"
 * leave such a property out of what they offer.
 */
export function isNeverSchema(schema: unknown): boolean {
  if (schema === false) return true;
  if (!isSchemaObject(schema) || !("not" in schema)) return false;
  const not = schema.not;
  const anything = not === true || (isSchemaObject(not) && Object.keys(not).length === 0);
  return (
    anything &&
    Object.keys(schema).every((k) => ["not", "description", "title", "deprecated", "$comment"].includes(k))
  );
}
