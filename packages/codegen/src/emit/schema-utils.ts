import type { JsonSchema } from "../contract/types.ts";

export const isSchemaObject = (v: unknown): v is JsonSchema =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** Escapes one JSON pointer token (`~` → `~0`, `/` → `~1`). */
export function escapeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Resolves a local `$ref` (`#`, `#/$defs/X`, `#/definitions/X`, any `#/…` pointer) against the
 * root schema it appears in; `undefined` when it points nowhere.
 */
export function resolveLocalRef(root: JsonSchema, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    const token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** The types a schema allows, as a list (`type` may be a string or an array; absent → empty). */
export function typesOf(schema: JsonSchema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.map(String);
  return [];
}
