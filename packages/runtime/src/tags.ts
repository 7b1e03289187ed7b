/**
 * Type-level vocabulary for tool authors. Every tag is an optional, never-present
 * property, so plain values stay assignable (`const n: Int = 5` compiles) while
 * `mcp-gen build` reads the tag off the type and turns it into JSON Schema.
 *
 * @example
 * import type { Int, Maximum, Minimum } from "@mcp-gen/runtime";
 * export function search(query: string, limit: Int & Minimum<1> & Maximum<50> = 5) {}
 */

/** A number that must be an integer (`"type": "integer"`). */
export type Int = number & { readonly __mcpgen_integer?: true };

/** `minimum` — the value must be ≥ N. */
export type Minimum<N extends number> = { readonly __mcpgen_minimum?: N };
/** `maximum` — the value must be ≤ N. */
export type Maximum<N extends number> = { readonly __mcpgen_maximum?: N };
/** `exclusiveMinimum` — the value must be > N. */
export type ExclusiveMinimum<N extends number> = { readonly __mcpgen_exclusiveMinimum?: N };
/** `exclusiveMaximum` — the value must be < N. */
export type ExclusiveMaximum<N extends number> = { readonly __mcpgen_exclusiveMaximum?: N };
/** `multipleOf` — the value must be a multiple of N. */
export type MultipleOf<N extends number> = { readonly __mcpgen_multipleOf?: N };
/** `minLength` — the string must have at least N characters. */
export type MinLength<N extends number> = { readonly __mcpgen_minLength?: N };
/** `maxLength` — the string must have at most N characters. */
export type MaxLength<N extends number> = { readonly __mcpgen_maxLength?: N };
/** `pattern` — the string must match the ECMAScript regular expression P. */
export type Pattern<P extends string> = { readonly __mcpgen_pattern?: P };
/** `minItems` — the array must have at least N items. */
export type MinItems<N extends number> = { readonly __mcpgen_minItems?: N };
/** `maxItems` — the array must have at most N items. */
export type MaxItems<N extends number> = { readonly __mcpgen_maxItems?: N };
/** `uniqueItems` — the array items must be distinct. */
export type UniqueItems = { readonly __mcpgen_uniqueItems?: true };

/** String formats checked by the generated validators (ajv-formats, full mode). */
export type FormatName =
  | "date"
  | "time"
  | "date-time"
  | "duration"
  | "uri"
  | "uri-reference"
  | "uri-template"
  | "url"
  | "email"
  | "hostname"
  | "ipv4"
  | "ipv6"
  | "regex"
  | "uuid"
  | "json-pointer"
  | "relative-json-pointer"
  | "byte"
  | "int32"
  | "int64"
  | "float"
  | "double"
  | "password"
  | "binary";

/** `format` — the string must have the given format. */
export type Format<F extends FormatName> = { readonly __mcpgen_format?: F };

/**
 * `x-mcp-header` — MCP 2026-07-28 clients calling over Streamable HTTP also send this argument as
 * the header `Mcp-Param-{Name}`, so gateways and load balancers can route on it without reading
 * the body; the server checks the header matches the argument. Only on string, integer
 * (`Int`) and boolean parameters, or properties reached from them through plain object types.
 *
 * @example
 * export function query(region: string & Header<"Region">, sql: string) {}
 */
export type Header<Name extends string> = { readonly __mcpgen_header?: Name };
