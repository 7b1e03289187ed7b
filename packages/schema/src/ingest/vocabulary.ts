import { createAjv } from "../ajv.ts";

/** Every keyword of JSON Schema 2020-12 (core, applicator, validation, unevaluated, format, content, metadata). */
export const KEYWORDS_2020_12: ReadonlySet<string> = new Set([
  "$schema",
  "$id",
  "$ref",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$vocabulary",
  "$comment",
  "$defs",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentSchemas",
  "prefixItems",
  "items",
  "contains",
  "properties",
  "patternProperties",
  "additionalProperties",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxContains",
  "minContains",
  "maxProperties",
  "minProperties",
  "required",
  "dependentRequired",
  "format",
  "contentEncoding",
  "contentMediaType",
  "contentSchema",
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
]);

/**
 * Keywords outside 2020-12 that servers commonly send as plain annotations (OpenAPI's
 * `example`, editor hints); kept without a warning, like every `x-…` vendor extension.
 */
const QUIET_ANNOTATIONS: ReadonlySet<string> = new Set([
  "example",
  "markdownDescription",
  "enumDescriptions",
  "markdownEnumDescriptions",
  "errorMessage",
]);

/** Whether a keyword is a harmless annotation that needs no warning although 2020-12 does not define it. */
export function isQuietAnnotation(keyword: string): boolean {
  return keyword.startsWith("x-") || QUIET_ANNOTATIONS.has(keyword);
}

let formats: ReadonlySet<string> | undefined;

/** Formats the generated validators check (those Ajv knows with ajv-formats); others are annotations only. */
export function knownFormats(): ReadonlySet<string> {
  formats ??= new Set(Object.keys(createAjv({ source: false }).formats));
  return formats;
}
