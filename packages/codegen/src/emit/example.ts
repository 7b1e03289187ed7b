import type { JsonSchema } from "@mcp-gen/schema";
import { isSchemaObject, resolveLocalRef, typesOf } from "@mcp-gen/schema";

const FORMAT_EXAMPLES: Record<string, string> = {
  "date-time": "2025-01-01T12:00:00Z",
  date: "2025-01-01",
  time: "12:00:00Z",
  email: "user@example.com",
  uri: "https://example.com",
  url: "https://example.com",
  uuid: "123e4567-e89b-42d3-a456-426614174000",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
  hostname: "example.com",
};

const toolExamples = new WeakMap<object, unknown>();

/**
 * `exampleValue(inputSchema, inputSchema)`, made once per schema object: `TOOLS.md` and the typed
 * client both show it for every tool. Callers only read the value.
 */
export function toolExample(inputSchema: JsonSchema): unknown {
  if (toolExamples.has(inputSchema)) return toolExamples.get(inputSchema);
  const example = exampleValue(inputSchema, inputSchema);
  toolExamples.set(inputSchema, example);
  return example;
}

/**
 * A small, plausible value for a schema, for docs and JSDoc examples: `examples[0]`, the default,
 * `const` or the first `enum` value when there is one; otherwise built from the type and its bounds.
 * Objects get their required properties only, or every property with `allProperties`.
 *
 * @example
 * exampleValue({ type: "object", properties: { q: { type: "string" } }, required: ["q"] }, root);
 * // → { q: "example" }
 */
export function exampleValue(
  schema: unknown,
  root: JsonSchema,
  options: { allProperties?: boolean } = {},
  seen: ReadonlySet<string> = new Set(),
): unknown {
  const next = (sub: unknown, s = seen) => exampleValue(sub, root, options, s);
  if (!isSchemaObject(schema)) return null;
  if (typeof schema.$ref === "string") {
    if (seen.has(schema.$ref)) return null;
    return next(resolveLocalRef(root, schema.$ref), new Set([...seen, schema.$ref]));
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined && schema.default !== null) return schema.default;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0)
    return schema.enum.find((v) => v !== null) ?? null;
  // an object with its own properties: combinators next to them are rules between the properties
  const shaped = isSchemaObject(schema.properties);
  for (const key of ["anyOf", "oneOf"] as const) {
    const list = schema[key];
    if (Array.isArray(list) && !shaped) {
      const branch = list.find((s) => !(isSchemaObject(s) && s.type === "null")) ?? list[0];
      return next(branch);
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0 && !shaped) return next(schema.allOf[0]);
  const type = typesOf(schema).find((t) => t !== "null") ?? inferType(schema);
  switch (type) {
    case "string":
      return stringExample(schema);
    case "integer":
    case "number":
      return numberExample(schema, type === "integer");
    case "boolean":
      return true;
    case "array": {
      if (Array.isArray(schema.prefixItems)) return schema.prefixItems.map((s) => next(s));
      if (schema.maxItems === 0 || schema.items === false) return [];
      const items = schema.items;
      if (isSchemaObject(items) && typeof items.$ref === "string" && seen.has(items.$ref)) return [];
      const count = Math.max(1, typeof schema.minItems === "number" ? schema.minItems : 1);
      return Array.from({ length: count }, () => next(schema.items));
    }
    case "object": {
      const properties = isSchemaObject(schema.properties) ? schema.properties : {};
      const required = [
        ...new Set([...requiredOf(schema), ...RULES.flatMap((k) => rulesRequired(schema[k]))]),
      ];
      // a property that must be absent (`false`, `{ not: {} }`) is never sent
      const names = (
        options.allProperties ? Object.keys(properties) : required.filter((n) => n in properties)
      ).filter((n) => !isNever(properties[n]));
      return Object.fromEntries(names.map((n) => [n, next(properties[n])]));
    }
    case "null":
      return null;
    default:
      return null;
  }
}

/** Keywords whose subschemas say which properties go together (their `required` are all sent). */
const RULES = ["allOf", "anyOf", "oneOf", "if", "then", "else"];

const requiredOf = (schema: JsonSchema) =>
  Array.isArray(schema.required) ? schema.required.map(String) : [];

/** The names the rules of a hand-written object schema require, anywhere in them. */
function rulesRequired(rule: unknown): string[] {
  if (Array.isArray(rule)) return rule.flatMap(rulesRequired);
  if (!isSchemaObject(rule)) return [];
  return [...requiredOf(rule), ...RULES.flatMap((k) => rulesRequired(rule[k]))];
}

function inferType(schema: JsonSchema): string | undefined {
  if ("properties" in schema || "additionalProperties" in schema) return "object";
  if ("items" in schema || "prefixItems" in schema) return "array";
  return undefined;
}

/** A number inside the bounds (inclusive and exclusive), a multiple of `multipleOf` where one fits. */
function numberExample(schema: JsonSchema, integer: boolean): number {
  const num = (k: string) => (typeof schema[k] === "number" ? (schema[k] as number) : undefined);
  const lo = num("minimum") ?? num("exclusiveMinimum");
  const hi = num("maximum") ?? num("exclusiveMaximum");
  const step = num("multipleOf") ?? (integer ? 1 : undefined);
  const inside = (v: number) =>
    (num("minimum") === undefined || v >= num("minimum")!) &&
    (num("exclusiveMinimum") === undefined || v > num("exclusiveMinimum")!) &&
    (num("maximum") === undefined || v <= num("maximum")!) &&
    (num("exclusiveMaximum") === undefined || v < num("exclusiveMaximum")!);
  const candidates = [
    1,
    lo,
    lo !== undefined ? lo + (step ?? 1) : undefined,
    hi,
    hi !== undefined ? hi - (step ?? 1) : undefined,
  ];
  if (lo !== undefined && hi !== undefined) candidates.push((lo + hi) / 2);
  candidates.push(0, -1);
  for (const c of candidates) {
    if (c === undefined) continue;
    const v = step ? Math.ceil(c / step) * step : c;
    if (inside(v)) return v;
  }
  return lo ?? hi ?? 1;
}

/** Strings tried, in order, against a `pattern` (a generated example should match it). */
const PATTERN_CANDIDATES = [
  "example",
  "1",
  "1.5",
  "a",
  "A1",
  "abc-123",
  "0x0",
  "2025-01-01",
  "12:00",
  "user@example.com",
];

function stringExample(schema: JsonSchema): string {
  const base = typeof schema.format === "string" ? (FORMAT_EXAMPLES[schema.format] ?? "example") : "example";
  if (typeof schema.pattern !== "string") return fitLength(base, schema);
  let pattern: RegExp;
  try {
    pattern = new RegExp(schema.pattern, "u");
  } catch {
    return base;
  }
  const built = fromPattern(schema.pattern);
  return (
    [base, ...PATTERN_CANDIDATES, ...(built !== undefined ? [built] : [])].find((c) => pattern.test(c)) ??
    base
  );
}

const isNever = (schema: unknown) => schema === false || (isSchemaObject(schema) && "not" in schema);

/**
 * The shortest string a simple pattern spells out (`^user_` → `user_`, `^(?:\d+)px$` → `1px`):
 * optional parts dropped, each group's first alternative kept, a class's first character; checked
 * by the caller, so a pattern beyond this (lookarounds, backreferences) just gets no string.
 */
function fromPattern(pattern: string): string | undefined {
  let text = pattern.replace(/^\^/, "").replace(/(?<!\\)\$$/, "");
  const GROUP = /\((?:\?:)?((?:[^()\\]|\\.)*)\)/;
  const OPTIONAL =
    /(\((?:\?:)?(?:[^()\\]|\\.)*\)|\[(?:[^\]\\]|\\.)*\]|\\.|[^\\()[\]])(?:\?|\*|\{0(?:,\d*)?\})/;
  for (let i = 0; i < 200; i++) {
    const optional = OPTIONAL.exec(text);
    if (optional) {
      text = text.slice(0, optional.index) + text.slice(optional.index + optional[0].length);
      continue;
    }
    const group = GROUP.exec(text);
    if (!group) break;
    const first = splitTop(group[1]!)[0] ?? "";
    text = text.slice(0, group.index) + first + text.slice(group.index + group[0].length);
  }
  if (text.includes("|")) text = splitTop(text)[0] ?? "";
  return text
    .replace(/(\[(?:[^\]\\]|\\.)*\]|\\.|[^\\])\{(\d+)(?:,\d*)?\}/g, (_, atom: string, n: string) =>
      atom.repeat(Number(n)),
    )
    .replace(/\\d/g, "1")
    .replace(/\\w/g, "a")
    .replace(/\\s/g, " ")
    .replace(/\[\^?((?:[^\]\\]|\\.)*)\]/g, (_, inner: string) =>
      inner.startsWith("\\") ? inner.slice(1, 2) : inner.slice(0, 1),
    )
    .replace(/[+]|\{\d+(?:,\d*)?\}/g, "")
    .replace(/\\(.)/g, "$1");
}

/** The alternatives of a pattern, split at its top-level `|`. */
function splitTop(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === "|" && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function fitLength(text: string, schema: JsonSchema): string {
  const max = typeof schema.maxLength === "number" ? schema.maxLength : undefined;
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const cut = max !== undefined ? text.slice(0, max) : text;
  return cut.length >= min ? cut : cut.padEnd(min, "x");
}
