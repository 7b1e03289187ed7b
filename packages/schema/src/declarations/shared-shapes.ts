import type { JsonSchema } from "../contract.ts";
import { forEachSubschema, isSchemaObject } from "../schema-utils.ts";

/** A shape declared once as a `type` and named wherever it recurs. */
export interface SharedShape {
  name: string;
  schema: JsonSchema;
  /** Where it first occurs (for warnings while printing it). */
  pointer: string;
}

/** One schema to look into: the arguments or the result of a tool, with what names its parts. */
export interface ShapeRoot {
  schema: JsonSchema;
  pointer: string;
  /** The name of the root itself (`TransferEthResult`), used when no property names it. */
  name: string;
}

const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");

/**
 * What a shape's type does not print: its own annotations. Where it is used, the property's doc (or
 * the result's `Returns:` line) says them, so the same properties under another description are
 * the same shape.
 */
const OWN_ANNOTATIONS = ["title", "description", "default", "examples", "deprecated", "$schema", "$comment"];

const withoutAnnotations = (schema: JsonSchema): JsonSchema =>
  Object.fromEntries(Object.entries(schema).filter(([k]) => !OWN_ANNOTATIONS.includes(k)));

const SCALAR_TYPES = ["string", "number", "integer", "boolean", "null"];
const SCALAR_WORDS = [
  "pattern",
  "format",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
];

/**
 * A scalar worth a name when it recurs: one with constraints (said once, on the alias) or an enum
 * of three or more values (`type Address = string` under `// matches /^[a-z]+$/`).
 */
function scalarKey(schema: JsonSchema): string | undefined {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (!types.every((t) => SCALAR_TYPES.includes(t as string))) return undefined;
  const own = withoutAnnotations(schema);
  if (!Object.keys(own).every((k) => k === "type" || k === "enum" || SCALAR_WORDS.includes(k)))
    return undefined;
  const worth = SCALAR_WORDS.some((k) => k in own) || (Array.isArray(own.enum) && own.enum.length >= 3);
  return worth ? `scalar ${JSON.stringify(own)}` : undefined;
}

/**
 * What a scalar's constraints take beside its type, in characters: an alias pays for itself (about
 * eight tokens) only when the words it saves at every further use are longer than that.
 */
function scalarCost(schema: JsonSchema): number {
  const own = withoutAnnotations(schema);
  return JSON.stringify(own).length - JSON.stringify({ type: own.type }).length;
}

/** Whether a shared shape is a scalar (see `scalarKey`): its constraints are said on its alias. */
export const isScalarShape = (shape: SharedShape): boolean => scalarKey(shape.schema) !== undefined;

/**
 * The key of a shape worth naming when it recurs: an object with two or more properties and no
 * `$ref` (a reference means something else in each tool), or a scalar (see `scalarKey`).
 */
function keyOf(schema: unknown): string | undefined {
  if (!isSchemaObject(schema)) return undefined;
  if (!isSchemaObject(schema.properties)) return scalarKey(schema);
  if (Object.keys(schema.properties).length < 2) return undefined;
  const json = JSON.stringify(withoutAnnotations(schema));
  return json.includes('"$ref"') ? undefined : json;
}

/** What names a part: its title, else the property that holds it (an item: the property, singular). */
function nameAt(schema: JsonSchema, suffix: string, parent: string | undefined): string | undefined {
  if (typeof schema.title === "string" && pascal(schema.title)) return pascal(schema.title);
  const property = /^\/properties\/([^/]+)$/.exec(suffix)?.[1];
  if (property) return pascal(property) || undefined;
  if (/^\/items$|^\/additionalProperties$/.test(suffix) && parent)
    return parent.length > 3 && parent.endsWith("s") ? parent.slice(0, -1) : parent;
  return undefined;
}

/**
 * The object shapes that occur more than once among the roots (identical schemas, descriptions
 * included, so nothing is lost by naming them), each with a name taken from where it occurs;
 * `taken` holds names already in use and receives the new ones.
 */
export function sharedShapes(roots: readonly ShapeRoot[], taken: Set<string>): Map<string, SharedShape> {
  // a recurring shape is looked into once: its parts recur only if they do elsewhere too
  const uses = new Map<string, { n: number; schema: JsonSchema; pointer: string; names: string[] }>();
  const go = (schema: unknown, pointer: string, name: string | undefined) => {
    if (!isSchemaObject(schema)) return;
    const key = keyOf(schema);
    if (key) {
      const seen = uses.get(key);
      if (seen) {
        seen.n++;
        if (name) seen.names.push(name);
        return;
      }
      uses.set(key, { n: 1, schema, pointer, names: name ? [name] : [] });
    }
    forEachSubschema(schema, (sub, suffix) => {
      if (isSchemaObject(sub)) go(sub, `${pointer}${suffix}`, nameAt(sub, suffix, name));
    });
  };
  for (const root of roots) go(root.schema, root.pointer, undefined);
  const shared = new Map<string, SharedShape>();
  for (const [key, use] of uses) {
    if (use.n < 2 || (key.startsWith("scalar ") && (use.n - 1) * scalarCost(use.schema) < 24)) continue;
    const rootName = roots.find((r) => r.schema === use.schema)?.name;
    const format =
      typeof use.schema.format === "string" && !("pattern" in use.schema) ? use.schema.format : "";
    let name = pascal(format) || (use.names[0] ?? rootName ?? "Shape");
    while (taken.has(name)) name = `${name}_`;
    taken.add(name);
    shared.set(key, { name, schema: use.schema, pointer: use.pointer });
  }
  return shared;
}

/** The name of a schema among the shared shapes (`named` of `schemaToTs`), except `self`. */
export function shapeNamer(
  shared: ReadonlyMap<string, SharedShape>,
  self?: JsonSchema,
): (schema: JsonSchema) => string | undefined {
  if (shared.size === 0) return () => undefined;
  return (schema) => {
    if (schema === self) return undefined;
    const key = keyOf(schema);
    return key ? shared.get(key)?.name : undefined;
  };
}

/** The keywords of a plain object shape: what `shapeBase` compares. */
const PLAIN = new Set(["type", "properties", "required", "additionalProperties", ...OWN_ANNOTATIONS]);

const plainObject = (schema: JsonSchema): boolean =>
  schema.type === "object" &&
  isSchemaObject(schema.properties) &&
  [undefined, true, false].includes(schema.additionalProperties as boolean | undefined) &&
  Object.keys(schema).every((k) => PLAIN.has(k));

/** A shared shape an object extends, and the properties it adds (printed as `Shape&{…}`). */
export interface ShapeBase {
  name: string;
  /** The object's properties that are not the shape's, in their order. */
  own: string[];
}

/**
 * The largest shared shape whose every property an object has too, identical and as required
 * (the ledger's transfer receipt is a `Transaction` and three more properties), or `undefined`.
 * Plain objects only (`type`, `properties`, `required`, `additionalProperties`), both closed or
 * both open alike, so that `Shape&{…}` is the object's type exactly; never the shape itself.
 */
export function shapeBase(
  shared: ReadonlyMap<string, SharedShape>,
): (schema: JsonSchema) => ShapeBase | undefined {
  const bases = [...shared.values()].filter((s) => plainObject(s.schema));
  if (bases.length === 0) return () => undefined;
  const required = (s: JsonSchema) => new Set(Array.isArray(s.required) ? s.required.map(String) : []);
  return (schema) => {
    if (!plainObject(schema)) return undefined;
    const props = schema.properties as Record<string, unknown>;
    const needed = required(schema);
    let best: ShapeBase | undefined;
    let size = 0;
    for (const base of bases) {
      const baseProps = base.schema.properties as Record<string, unknown>;
      const names = Object.keys(baseProps);
      if (names.length >= Object.keys(props).length || names.length <= size) continue;
      if (JSON.stringify(base.schema.additionalProperties) !== JSON.stringify(schema.additionalProperties))
        continue;
      const baseRequired = required(base.schema);
      const fits = names.every(
        (n) =>
          n in props &&
          JSON.stringify(props[n]) === JSON.stringify(baseProps[n]) &&
          baseRequired.has(n) === needed.has(n),
      );
      if (!fits) continue;
      best = { name: base.name, own: Object.keys(props).filter((n) => !(n in baseProps)) };
      size = names.length;
    }
    return best;
  };
}

/** The shared scalar a schema is (its alias carries its constraints), or `undefined`. */
export function scalarShape(
  shared: ReadonlyMap<string, SharedShape>,
): (schema: unknown) => SharedShape | undefined {
  // the readable form shares no shape: no key to compute (a JSON string per documented property)
  if (shared.size === 0) return () => undefined;
  return (schema) => {
    if (!isSchemaObject(schema) || isSchemaObject(schema.properties)) return undefined;
    const key = scalarKey(schema);
    return key ? shared.get(key) : undefined;
  };
}
