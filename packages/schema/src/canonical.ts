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
  const entries = Object.entries(schema as Record<string, unknown>).sort(([a], [b]) => {
    const ra = RANK.get(a) ?? ORDER.length;
    const rb = RANK.get(b) ?? ORDER.length;
    return ra !== rb ? ra - rb : a < b ? -1 : a > b ? 1 : 0;
  });
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    if (DATA.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.has(key) && value && typeof value === "object" && !Array.isArray(value)) {
      const inner = Object.entries(value as Record<string, unknown>);
      if (key === "$defs" || key === "definitions") inner.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      out[key] = Object.fromEntries(inner.map(([k, v]) => [k, canonicalSchema(v)]));
    } else out[key] = canonicalSchema(value);
  }
  return out;
}
