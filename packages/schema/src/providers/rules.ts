/**
 * The documented rules of each target, in one place: the converters follow them and the rule
 * checkers (`src/lint/`) verify every emitted file against them. Each group names where the rule
 * is documented; see docs/guide/providers.md for the list.
 */

/**
 * Tool (function) names.
 * - MCP 2025-11-25 (Tools → Tool names, SEP-986): SHOULD be 1–128 characters of A–Z a–z 0–9 `_` `-` `.`.
 * - Anthropic Messages API `tools[].name`: `^[a-zA-Z0-9_-]{1,64}$`.
 * - OpenAI `FunctionDefinition.name` (openai-node `resources/shared.d.ts`): a-z A-Z 0-9 `_` `-`, at most 64.
 * - Gemini `FunctionDeclaration.name`: a-z A-Z 0-9 `_` `.` `:` `-`, at most 64 (Gemini API reference);
 *   Vertex AI adds "must start with a letter or an underscore" and leaves out `:`; we take both limits.
 */
export const TOOL_NAME_RULES = {
  mcp: /^[A-Za-z0-9_.-]{1,128}$/,
  anthropic: /^[a-zA-Z0-9_-]{1,64}$/,
  openai: /^[a-zA-Z0-9_-]{1,64}$/,
  gemini: /^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$/,
} as const;

/**
 * Property names. Anthropic documents (Claude platform docs, custom tools) that `input_schema`
 * property names outside letters, digits, `_`, `.`, `-` (1–64 characters) are rejected.
 */
export const PROPERTY_NAME_RULES = {
  anthropic: /^[a-zA-Z0-9_.-]{1,64}$/,
} as const;

/**
 * OpenAI strict mode (Structured Outputs "Supported schemas"; openai-node `lib/transform.ts`,
 * `toStrictJsonSchema`): root is an object and not `anyOf`; every object has
 * `additionalProperties: false` and lists every property in `required`; optional values are
 * expressed as a union with `null`. Limits as documented: at most 5 levels of nesting and 100
 * object properties in total (newer models document more; we keep the lower, portable limits).
 */
export const OPENAI_STRICT = {
  maxDepth: 5,
  maxProperties: 100,
  /** Keywords strict mode accepts (types, `enum`, `const`, `anyOf`, references, documented constraints, annotations). */
  keywords: new Set([
    "type",
    "description",
    "title",
    "enum",
    "const",
    "anyOf",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "$ref",
    "$defs",
    "$schema",
    "$id",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
  ]),
} as const;

/**
 * Gemini `FunctionDeclaration.parameters`: a `Schema` (a select subset of the OpenAPI 3.0 schema
 * object; generativelanguage v1beta `Schema` fields). `type` is one of the `Type` enum names; `enum`
 * holds strings only (with `format: "enum"`); the Gemini Developer API takes the string formats
 * `enum` and `date-time` only (other formats move into descriptions). An `OBJECT` needs a non-empty
 * `properties` (the API answers "properties: should be non-empty for OBJECT type").
 */
export const GEMINI_SCHEMA = {
  fields: new Set([
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
  ]),
  types: new Set(["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"]),
  formats: {
    STRING: ["enum", "date-time"],
    NUMBER: ["float", "double"],
    INTEGER: ["int32", "int64"],
  } as Record<string, string[]>,
} as const;

/**
 * Gemini `FunctionDeclaration.parametersJsonSchema`: JSON Schema describing an object; the keywords
 * Gemini documents for its JSON Schema support: `type` (also with `"null"` in a type array), `title`,
 * `description`, `enum`, `format`, `minimum`, `maximum`, `items`, `prefixItems`, `minItems`,
 * `maxItems`, `properties`, `required`, `propertyOrdering`, `additionalProperties`, `anyOf`.
 */
export const GEMINI_JSON_SCHEMA = {
  keywords: new Set([
    "type",
    "title",
    "description",
    "enum",
    "format",
    "minimum",
    "maximum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "properties",
    "required",
    "propertyOrdering",
    "additionalProperties",
    "anyOf",
  ]),
} as const;
