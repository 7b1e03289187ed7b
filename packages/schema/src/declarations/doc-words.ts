import { isSchemaObject } from "../schema-utils.ts";

const json = (v: unknown) => JSON.stringify(v);

/** How constraints are worded: `>= 1, <= 50` for people, `1..50` for a model (fewer tokens, the same bounds). */
export interface WordingOptions {
  /** The model's form: inclusive ranges as `1..50`, bounds without a space (`>=1`, `<0`). */
  compact?: boolean;
  /**
   * The descriptions of an array's items, a tuple's elements and a map's values are said where
   * those sit in the printed type (`PrintOptions.partsInPlace`), not in the parent's words.
   */
  partsInPlace?: boolean;
}

function range(low: unknown, high: unknown, unit: string, compact: boolean): string | undefined {
  const space = compact ? "" : " ";
  if (low !== undefined && high !== undefined) return `${unit}${json(low)}..${json(high)}`;
  if (low !== undefined) return `${unit}>=${space}${json(low)}`;
  if (high !== undefined) return `${unit}<=${space}${json(high)}`;
  return undefined;
}

/** A number's bounds: `>= 1, <= 50` (readable) or `1..50` (compact, after `integer` when it is one). */
function bounds(s: Record<string, unknown>, integer: boolean, compact: boolean): (string | undefined)[] {
  const space = compact ? "" : " ";
  const exclusive = [
    s.exclusiveMinimum !== undefined ? `>${space}${json(s.exclusiveMinimum)}` : undefined,
    s.exclusiveMaximum !== undefined ? `<${space}${json(s.exclusiveMaximum)}` : undefined,
  ];
  if (!compact)
    return [
      integer ? "integer" : undefined,
      s.minimum !== undefined ? `>= ${json(s.minimum)}` : undefined,
      exclusive[0],
      s.maximum !== undefined ? `<= ${json(s.maximum)}` : undefined,
      exclusive[1],
    ];
  const inclusive = range(s.minimum, s.maximum, "", true);
  const head = [integer ? "integer" : undefined, inclusive].filter(Boolean).join(" ");
  return [head || undefined, ...exclusive];
}

/**
 * The constraints of a schema in a few words, for a model reading declarations:
 * `integer, >= 1, <= 50`, `length 1..64`, `format date-time`, `default 10` (compact:
 * `integer 1..50`, `length <=64`).
 */
export function constraintWords(schema: unknown, options: WordingOptions = {}): string[] {
  if (!isSchemaObject(schema)) return [];
  const s = schema;
  const compact = options.compact === true;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  const words: (string | undefined)[] = [
    ...bounds(s, types.includes("integer") && !types.includes("number"), compact),
    s.multipleOf !== undefined ? `multiple of ${json(s.multipleOf)}` : undefined,
    range(s.minLength, s.maxLength, "length ", compact),
    typeof s.pattern === "string" ? `matches /${s.pattern}/` : undefined,
    typeof s.format === "string" ? `format ${s.format}` : undefined,
    tupleLength(s) ? undefined : range(s.minItems, s.maxItems, "items ", compact),
    s.uniqueItems === true ? "unique items" : undefined,
    range(s.minProperties, s.maxProperties, "keys ", compact),
    s.default !== undefined ? `default ${json(s.default)}` : undefined,
  ];
  return words.filter((w): w is string => w !== undefined);
}

/** A tuple's `minItems`/`maxItems` say what its type already does. */
function tupleLength(s: Record<string, unknown>): boolean {
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
  return (
    prefix !== undefined && s.minItems === prefix.length && (s.maxItems ?? prefix.length) === prefix.length
  );
}

/** One line of JSDoc for a property: its description, then its constraints in parentheses. */
export function propertyDoc(schema: unknown, options: WordingOptions = {}): string[] {
  if (!isSchemaObject(schema)) return [];
  const text = typeof schema.description === "string" ? schema.description.trim() : "";
  const words = constraintWords(schema, options);
  const constraints = words.length === 0 ? "" : text ? `(${words.join(", ")})` : words.join(", ");
  const head = [text, constraints].filter(Boolean).join(" ");
  const parts = [head, ...partDescriptions(schema, options)].filter(Boolean);
  if (schema.deprecated === true) parts.push("Deprecated.");
  return parts.length > 0 ? [sentences(parts)] : [];
}

/** Parts joined as sentences: one that does not end with punctuation gets a full stop before the next. */
export const sentences = (parts: readonly string[]) =>
  parts.map((p, i) => (i < parts.length - 1 && !/[.!?:;)]$/.test(p) ? `${p}.` : p)).join(" ");

export const described = (schema: unknown): string | undefined =>
  isSchemaObject(schema) && typeof schema.description === "string" && schema.description.trim() !== ""
    ? schema.description.trim()
    : undefined;

/**
 * The descriptions a type cannot carry as a property's doc: of an array's items (or a tuple's),
 * of a map's values and of the branches of a union (`Each item: One command sent to a device.`),
 * looked for through nested arrays, maps and unions, so that no word of the schema is lost. With
 * `partsInPlace`, only the branches': the rest are said in the type (`PrintOptions.partsInPlace`).
 */
export function partDescriptions(
  schema: Record<string, unknown>,
  options: Pick<WordingOptions, "partsInPlace"> = {},
): string[] {
  const parts: string[] = [];
  const part = (sub: unknown, label: string) => {
    const text = described(sub);
    if (text) parts.push(label ? `${label}: ${text}` : text);
    else if (isSchemaObject(sub)) parts.push(...partDescriptions(sub, options));
  };
  if (options.partsInPlace === true) {
    for (const key of ["anyOf", "oneOf", "allOf"]) {
      const list = schema[key];
      if (Array.isArray(list)) for (const branch of list) part(branch, "");
    }
    return parts;
  }
  const tuple = Array.isArray(schema.prefixItems)
    ? schema.prefixItems
    : Array.isArray(schema.items)
      ? schema.items
      : [];
  for (const [i, s] of tuple.entries()) part(s, `Item ${i + 1}`);
  if (!Array.isArray(schema.items)) part(schema.items, "Each item");
  part(schema.additionalProperties, "Each value");
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const list = schema[key];
    if (Array.isArray(list)) for (const branch of list) part(branch, "");
  }
  return parts;
}
