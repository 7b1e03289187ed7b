import { setOwn } from "./schema-utils.ts";

/** Keyword order of emitted schemas: identity, type, documentation, shape, constraints, examples, definitions. */
const ORDER = [
  "$schema",
  "$id",
  "$anchor",
  "$ref",
  "$comment",
  "type",
  "title",
  "description",
  "const",
  "enum",
  "format",
  "properties",
  "required",
  "additionalProperties",
  "prefixItems",
  "items",
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "anyOf",
  "oneOf",
  "allOf",
  "if",
  "then",
  "else",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$defs",
];
const RANK = new Map(ORDER.map((k, i) => [k, i]));

/** Keys whose values map names to schemas: their own keys keep their order, values are canonicalised. */
const SCHEMA_MAPS = new Set(["properties", "$defs", "definitions", "patternProperties", "dependentSchemas"]);
/** Keys whose values are data, not schemas: left exactly as they are. */
const DATA = new Set(["const", "enum", "default", "examples", "required"]);

/**
 * Reorders the keywords of a schema (recursively) into one fixed order so the same
 * schema always serialises to the same bytes. Property order is kept as declared;
 * `$defs` are sorted by name.
 */
export function canonicalSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(canonicalSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const source = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of canonicalKeys(source)) {
    const value = source[key];
    if (DATA.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.has(key) && value && typeof value === "object" && !Array.isArray(value)) {
      const map = value as Record<string, unknown>;
      const names = Object.keys(map);
      if (key === "$defs" || key === "definitions") names.sort(byName);
      const inner: Record<string, unknown> = {};
      for (const name of names) setOwn(inner, name, canonicalSchema(map[name]));
      out[key] = inner;
    } else out[key] = canonicalSchema(value);
  }
  return out;
}

/**
 * `canonicalSchema` for a caller that only reads the result: a node already in canonical order
 * (with every subschema so) is returned itself instead of copied, so the result may share objects
 * with `schema`. The provider conversion canonicalises ≈ 5 definitions per tool, most already in
 * order (bench/README.md, "Build").
 */
export function canonicalShared(schema: unknown): unknown {
  if (Array.isArray(schema)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < schema.length; i++) {
      const item = canonicalShared(schema[i]);
      if (out === undefined && item !== schema[i]) out = schema.slice(0, i);
      if (out !== undefined) out.push(item);
    }
    return out ?? schema;
  }
  if (schema === null || typeof schema !== "object") return schema;
  const source = schema as Record<string, unknown>;
  const own = Object.keys(source);
  const keys = inCanonicalOrder(own) ? own : canonicalKeys(source);
  // a copy only from the first change on (a node in order whose subschemas are is returned itself)
  let out: Record<string, unknown> | undefined = keys === own ? undefined : {};
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = source[key];
    const next = DATA.has(key)
      ? value
      : SCHEMA_MAPS.has(key)
        ? canonicalMap(key, value)
        : canonicalShared(value);
    if (out === undefined && next !== value) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]!] = source[keys[j]!];
    }
    if (out !== undefined) out[key] = next;
  }
  return out ?? source;
}

/** Whether keys are in `canonicalKeys`' order already (the common case: nothing to sort or allocate). */
function inCanonicalOrder(keys: readonly string[]): boolean {
  let previous = -1;
  for (let i = 0; i < keys.length; i++) {
    const rank = RANK.get(keys[i]!) ?? ORDER.length;
    if (rank < previous || (rank === previous && keys[i - 1]! > keys[i]!)) return false;
    previous = rank;
  }
  return true;
}

/** A map of names to schemas (`properties`, `$defs` …) for `canonicalShared`: itself when unchanged. */
function canonicalMap(key: string, value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return canonicalShared(value);
  const map = value as Record<string, unknown>;
  const names = Object.keys(map);
  const sorted = key === "$defs" || key === "definitions";
  const order = sorted ? [...names].sort(byName) : names;
  let same = true;
  const inner: unknown[] = [];
  for (let i = 0; i < order.length; i++) {
    const name = order[i]!;
    const next = canonicalShared(map[name]);
    inner.push(next);
    if (next !== map[name] || name !== names[i]) same = false;
  }
  if (same) return map;
  const copy: Record<string, unknown> = {};
  for (let i = 0; i < order.length; i++) setOwn(copy, order[i]!, inner[i]);
  return copy;
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The keys of a schema in keyword order (unknown keywords last, by name); each ranked once. */
function canonicalKeys(schema: Record<string, unknown>): string[] {
  const keys = Object.keys(schema);
  if (keys.length < 2) return keys;
  const ranks = keys.map((k) => RANK.get(k) ?? ORDER.length);
  // insertion sort: schemas have a handful of keywords, mostly in order already
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    const rank = ranks[i]!;
    let j = i - 1;
    while (j >= 0 && (ranks[j]! > rank || (ranks[j] === rank && keys[j]! > key))) {
      keys[j + 1] = keys[j]!;
      ranks[j + 1] = ranks[j]!;
      j--;
    }
    keys[j + 1] = key;
    ranks[j + 1] = rank;
  }
  return keys;
}
