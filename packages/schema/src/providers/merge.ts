import type { JsonSchema } from "../contract.ts";
import { isSchemaObject, typesOf } from "../schema-utils.ts";

const isObjectSchema = (s: unknown): s is JsonSchema =>
  isSchemaObject(s) && (typesOf(s).includes("object") || "properties" in s);

/**
 * Merges `allOf` when the schema and every branch describe objects: properties and `required`
 * are united; a property declared differently by two branches, or any non-object branch, makes
 * the merge impossible (`undefined`).
 */
export function mergeAllOf(schema: JsonSchema): JsonSchema | undefined {
  const { allOf, ...base } = schema;
  const parts = [base, ...(Array.isArray(allOf) ? allOf : [])].filter(
    (p) => !(isSchemaObject(p) && Object.keys(p).length === 0),
  );
  if (!parts.every((p, i) => isObjectSchema(p) || (i === 0 && !("type" in (p as JsonSchema)))))
    return undefined;
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const closed = parts.filter(isObjectSchema).every((p) => p.additionalProperties === false);
  for (const part of parts as JsonSchema[]) {
    for (const [name, sub] of Object.entries(isSchemaObject(part.properties) ? part.properties : {})) {
      if (name in properties && JSON.stringify(properties[name]) !== JSON.stringify(sub)) return undefined;
      properties[name] = sub;
    }
    if (Array.isArray(part.required)) for (const r of part.required) required.add(String(r));
  }
  const merged: JsonSchema = { ...base, type: "object", properties };
  if (required.size > 0) merged.required = [...required];
  if (closed) merged.additionalProperties = false;
  else delete merged.additionalProperties;
  return merged;
}
