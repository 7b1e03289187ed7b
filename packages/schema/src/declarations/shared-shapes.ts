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

/** An object with two or more properties and no `$ref` (a reference means something else in each tool). */
function keyOf(schema: unknown): string | undefined {
  if (!isSchemaObject(schema) || !isSchemaObject(schema.properties)) return undefined;
  if (Object.keys(schema.properties).length < 2) return undefined;
  const json = JSON.stringify(schema);
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
    if (use.n < 2) continue;
    const rootName = roots.find((r) => r.schema === use.schema)?.name;
    let name = use.names[0] ?? rootName ?? "Shape";
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
