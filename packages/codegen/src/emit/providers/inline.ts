import type { JsonSchema } from "../../contract/types.ts";
import { isSchemaObject, mapSubschemas, resolveLocalRef } from "../schema-utils.ts";

export type InlineResult = { ok: true; schema: JsonSchema } | { ok: false; pointer: string; ref: string };

/**
 * Replaces every local `$ref` by a copy of its target (keywords next to the `$ref` win) and drops
 * `$defs`/`definitions`. A recursive reference cannot be expanded: the result names where it is.
 *
 * @example
 * inlineRefs({ type: "object", properties: { a: { $ref: "#/$defs/A" } }, $defs: { A: { type: "string" } } });
 * // → { ok: true, schema: { type: "object", properties: { a: { type: "string" } } } }
 */
export function inlineRefs(root: JsonSchema): InlineResult {
  let failure: { pointer: string; ref: string } | undefined;
  const visit = (node: unknown, pointer: string, stack: readonly string[]): unknown => {
    if (failure || !isSchemaObject(node)) return node;
    if (typeof node.$ref === "string") {
      const ref = node.$ref;
      if (stack.includes(ref)) {
        failure = { pointer, ref };
        return node;
      }
      const { $ref: _, ...siblings } = node;
      const expanded = visit(resolveLocalRef(root, ref), pointer, [...stack, ref]);
      const rest = visit(siblings, pointer, stack) as JsonSchema;
      return isSchemaObject(expanded) ? { ...expanded, ...rest } : expanded;
    }
    const { $defs: _a, definitions: _b, ...rest } = node;
    return mapSubschemas(rest, (sub, suffix) => visit(sub, `${pointer}${suffix}`, stack));
  };
  const schema = visit(root, "", []) as JsonSchema;
  return failure ? { ok: false, ...failure } : { ok: true, schema };
}

/** Whether a schema contains a `$ref` anywhere. */
export function hasRefs(schema: unknown): boolean {
  if (!isSchemaObject(schema)) return false;
  if (typeof schema.$ref === "string") return true;
  let found = false;
  mapSubschemas(schema, (sub) => {
    found ||= hasRefs(sub);
    return sub;
  });
  return found;
}
