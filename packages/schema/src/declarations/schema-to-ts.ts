import type { JsonSchema } from "../contract.ts";
import { escapeToken } from "../schema-utils.ts";
import { described } from "./doc-words.ts";
import {
  atom,
  element,
  intersection,
  literal,
  type Printed,
  punctuation,
  UNKNOWN,
  union,
} from "./printed.ts";
import { jsdoc, lineComments, propertyKey } from "./ts-text.ts";

const isObject = (v: unknown): v is JsonSchema => v !== null && typeof v === "object" && !Array.isArray(v);

export interface PrintOptions {
  /** Returns the TypeScript name of a `$ref`, or `undefined` when it cannot be resolved. */
  resolveRef(ref: string): string | undefined;
  /** Called for a schema part that cannot be typed (it becomes `unknown`). */
  warn(pointer: string, message: string): void;
  /** The JSDoc lines of a property's schema; default `docLines` (description and `@keyword` tags). */
  doc?: (schema: unknown) => string[];
  /**
   * Leave out the index signature of an object whose schema does not say `additionalProperties`
   * (declarations for a model: only the declared properties, so a misspelled one is an error).
   */
  omitDefaultIndex?: boolean;
  /** Print an object whose properties have no JSDoc on one line: `{ a: string; b?: number }`. */
  inlineBareObjects?: boolean;
  /**
   * The model's form: no indentation, `//` line comments instead of JSDoc, and the closing brace on
   * the last member's line, without its `;` (the same types and words, fewer tokens).
   */
  compact?: boolean;
  /** The name of a shape declared once as a type (see `sharedShapes`), or `undefined` to print it. */
  named?: (schema: JsonSchema) => string | undefined;
  /**
   * A named shape an object extends and the properties it adds (see `shapeBase`): the object is
   * printed `Shape&{…added}`.
   */
  base?: (schema: JsonSchema) => { name: string; own: string[] } | undefined;
  /**
   * With `compact`: the description of an array's items, a tuple's element or a map's values as a
   * comment right before its type, `(// A tag.\nstring)[]`, as a property's sits before the
   * property (its parent's doc then leaves it out: `WordingOptions.partsInPlace`).
   */
  partsInPlace?: boolean;
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
  for (const k of DOC_KEYWORDS) {
    if (schema[k] !== undefined) lines.push(`@${k} ${schema[k] === true ? "" : String(schema[k])}`.trimEnd());
  }
  if (schema.default !== undefined) lines.push(`@default ${JSON.stringify(schema.default)}`);
  if (schema.deprecated === true) lines.push("@deprecated");
  return lines;
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

/** Prints the TypeScript type of a JSON Schema (2020-12 or draft-07 keywords). */
export function schemaToTs(schema: unknown, pointer: string, options: PrintOptions, depth = 0): string {
  return print(schema, pointer, options, depth).text;
}

function print(schema: unknown, pointer: string, options: PrintOptions, depth: number): Printed {
  if (schema === true || (isObject(schema) && Object.keys(schema).every((k) => IGNORED.has(k))))
    return UNKNOWN;
  if (schema === false || (isObject(schema) && isNever(schema))) return atom("never");
  if (!isObject(schema)) {
    options.warn(pointer, "is not a schema");
    return UNKNOWN;
  }
  const shared = options.named?.(schema);
  if (shared) return atom(shared);
  if (typeof schema.$ref === "string") {
    const name = options.resolveRef(schema.$ref);
    if (name) return atom(name);
    options.warn(`${pointer}/$ref`, `cannot resolve $ref "${schema.$ref}"; typed as unknown`);
    return UNKNOWN;
  }
  if ("const" in schema) return literal(schema.const);
  const p = punctuation(options);
  if (Array.isArray(schema.enum)) return union(schema.enum.map(literal), p);
  for (const key of ["anyOf", "oneOf"] as const) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    const members = union(
      list.map((s, i) => print(s, `${pointer}/${key}/${i}`, options, depth)),
      p,
    );
    const base = withoutKey(schema, key);
    return hasShape(base) ? intersection([print(base, pointer, options, depth), members], p) : members;
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((s, i) => print(s, `${pointer}/allOf/${i}`, options, depth));
    const base = withoutKey(schema, "allOf");
    return intersection(hasShape(base) ? [print(base, pointer, options, depth), ...parts] : parts, p);
  }
  const rule = requiredRule(schema);
  if (rule)
    return atom(
      `${p.open}${rule.map((n) => `${propertyKey(n)}${p.colon}{}${p.or}null`).join(p.semi)}${p.close}`,
    );
  const types = Array.isArray(schema.type)
    ? schema.type
    : schema.type === undefined
      ? inferTypes(schema)
      : [schema.type];
  if (types.length === 0) {
    const unsupported = Object.keys(schema).filter((k) => !IGNORED.has(k) && !DOC_KEYWORDS.includes(k));
    if (unsupported.length > 0)
      options.warn(pointer, `cannot type keyword(s) ${unsupported.join(", ")}; typed as unknown`);
    return UNKNOWN;
  }
  return union(
    types.map((t) => typeOfType(String(t), schema, pointer, options, depth)),
    p,
  );
}

/**
 * The names of a schema that only says `required` (a branch of `anyOf: [{ required: ["a"] }, …]`
 * next to the properties): intersected with them, `{ a: {} | null }` makes `a` required — any value
 * but `undefined`, so that `a?: T` becomes `a: T` also under `exactOptionalPropertyTypes`.
 */
function requiredRule(schema: JsonSchema): string[] | undefined {
  const keys = Object.keys(schema).filter((k) => !IGNORED.has(k));
  if (keys.length !== 1 || keys[0] !== "required" || !Array.isArray(schema.required)) return undefined;
  return schema.required.length > 0 ? schema.required.map(String) : undefined;
}

/** `{ "not": {} }` (with annotations only): no value, as mcp-gen writes a property that must be absent. */
function isNever(schema: JsonSchema): boolean {
  const not = schema.not;
  if (not !== true && !(isObject(not) && Object.keys(not).every((k) => IGNORED.has(k)))) return false;
  return Object.keys(schema).every((k) => k === "not" || IGNORED.has(k));
}

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
): Printed {
  switch (type) {
    case "string":
    case "boolean":
    case "null":
      return atom(type);
    case "number":
    case "integer":
      return atom("number");
    case "array":
      return arrayType(schema, pointer, options, depth);
    case "object":
      return objectType(schema, pointer, options, depth);
    default:
      options.warn(`${pointer}/type`, `unknown type "${type}"; typed as unknown`);
      return UNKNOWN;
  }
}

/** The comment before a part's type (`partsInPlace`), or "". */
function note(schema: unknown, options: PrintOptions): string {
  const text = options.partsInPlace === true && options.compact === true ? described(schema) : undefined;
  return text ? lineComments([text]) : "";
}

/** A part's type after its comment: `(// A tag.\nstring)` as an array's element. */
function noted(schema: unknown, item: Printed, options: PrintOptions): string {
  const before = note(schema, options);
  return before ? `(${before}${item.text})` : element(item);
}

function arrayType(schema: JsonSchema, pointer: string, options: PrintOptions, depth: number): Printed {
  const prefixKey = Array.isArray(schema.prefixItems)
    ? "prefixItems"
    : Array.isArray(schema.items)
      ? "items"
      : undefined;
  if (prefixKey) {
    const prefix = schema[prefixKey] as unknown[];
    const min = typeof schema.minItems === "number" ? schema.minItems : 0;
    const parts = prefix.map((s, i) => {
      const item = print(s, `${pointer}/${prefixKey}/${i}`, options, depth);
      return `${note(s, options)}${i >= min ? `${element(item)}?` : item.text}`;
    });
    const restSchema = prefixKey === "prefixItems" ? schema.items : schema.additionalItems;
    if (restSchema !== undefined && restSchema !== false) {
      parts.push(`...${noted(restSchema, print(restSchema, `${pointer}/items`, options, depth), options)}[]`);
    }
    return atom(`[${parts.join(punctuation(options).comma)}]`);
  }
  if (schema.maxItems === 0 || schema.items === false) return atom("[]");
  if (schema.items === undefined || schema.items === true) return atom("unknown[]");
  const item = print(schema.items, `${pointer}/items`, options, depth);
  // the compact form spells an array of a union `Array<A|B>`: `)[]` costs more than `Array<`…`>`
  if (options.compact === true && item.kind !== "atom" && !note(schema.items, options))
    return atom(`Array<${item.text}>`);
  return atom(`${noted(schema.items, item, options)}[]`);
}

function objectType(schema: JsonSchema, pointer: string, options: PrintOptions, depth: number): Printed {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const additional = schema.additionalProperties;
  const base = options.base?.(schema);
  const names = base ? base.own : Object.keys(properties);
  const p = punctuation(options);
  if (names.length === 0) {
    const value =
      additional === false
        ? "never"
        : additional === undefined || additional === true
          ? "unknown"
          : print(additional, `${pointer}/additionalProperties`, options, depth).text;
    return atom(`Record<string${p.comma}${note(additional, options)}${value}>`);
  }
  const docs = names.map((name) => (options.doc ?? docLines)(properties[name]));
  const inline = options.inlineBareObjects === true && docs.every((d) => d.length === 0);
  const compact = options.compact === true;
  const indent = compact ? "" : "  ".repeat(depth + 1);
  let out = "{\n";
  const members: string[] = [];
  const propertyTypes: Printed[] = [];
  names.forEach((name, i) => {
    const sub = properties[name];
    const t = print(sub, `${pointer}/properties/${escapeToken(name)}`, options, inline ? depth : depth + 1);
    propertyTypes.push(t);
    members.push(`${propertyKey(name)}${required.has(name) ? "" : "?"}${p.colon}${t.text}`);
    out += compact ? lineComments(docs[i]!) : jsdoc(docs[i]!, indent);
    out += `${indent}${members[i]};\n`;
  });
  if (additional !== false && !(additional === undefined && options.omitDefaultIndex)) {
    const rest =
      additional === undefined || additional === true
        ? UNKNOWN
        : print(additional, `${pointer}/additionalProperties`, options, depth + 1);
    const optional = required.size < names.length ? [atom("undefined")] : [];
    const index = rest === UNKNOWN ? UNKNOWN : union([rest, ...propertyTypes, ...optional], p);
    const member = `[key${p.colon}string]${p.colon}${index.text}`;
    out += `${note(additional, options)}${indent}${member};\n`;
    members.push(`${note(additional, options)}${member}`);
  }
  // the model's form closes on the last member's line, without its `;` (`;}` costs a token more)
  const text = inline
    ? `${p.open}${members.join(p.semi)}${p.close}`
    : compact
      ? `${out.trimEnd().replace(/;$/, "")}}`
      : `${out}${"  ".repeat(depth)}}`;
  return base ? { text: `${base.name}${p.and}${text}`, kind: "intersection" } : atom(text);
}
