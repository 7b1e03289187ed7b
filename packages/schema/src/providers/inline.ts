import type { JsonSchema } from "../contract.ts";
import { isSchemaObject, mapSubschemas, resolveLocalRef } from "../schema-utils.ts";

/** How many times a recursive reference is expanded inside itself before the expansion stops. */
export const RECURSION_DEPTH = 3;

/** Where a recursive reference stopped being expanded (the schema there accepts any value). */
export interface RecursionCut {
  pointer: string;
  ref: string;
}

/**
 * Replaces every local `$ref` by a copy of its target (keywords next to the `$ref` win) and drops
 * `$defs`/`definitions`. A recursive reference is expanded `RECURSION_DEPTH` times inside itself;
 * deeper, the schema accepts any value and its description says what belongs there (the
 * validators still check the full recursive type). The places where that happened are returned.
 *
 * @example
 * inlineRefs({ type: "object", properties: { a: { $ref: "#/$defs/A" } }, $defs: { A: { type: "string" } } });
 * // → { schema: { type: "object", properties: { a: { type: "string" } } }, cuts: [] }
 */
export function inlineRefs(root: JsonSchema): { schema: JsonSchema; cuts: RecursionCut[] } {
  const cuts: RecursionCut[] = [];
  const visit = (node: unknown, pointer: string, stack: readonly string[]): unknown => {
    if (!isSchemaObject(node)) return node;
    if (typeof node.$ref === "string") {
      const ref = node.$ref;
      const { $ref: _, ...siblings } = node;
      const rest = visit(siblings, pointer, stack) as JsonSchema;
      if (stack.filter((r) => r === ref).length >= RECURSION_DEPTH) {
        cuts.push({ pointer, ref });
        const name = ref.split("/").pop() ?? ref;
        const what = `A ${name}, nested too deep to spell out here (the same shape as the ${name} above)`;
        return {
          ...rest,
          description: typeof rest.description === "string" ? `${rest.description}. ${what}` : what,
        };
      }
      const expanded = visit(resolveLocalRef(root, ref), pointer, [...stack, ref]);
      return isSchemaObject(expanded) ? { ...expanded, ...rest } : expanded;
    }
    const { $defs: _a, definitions: _b, ...rest } = node;
    return mapSubschemas(rest, (sub, suffix) => visit(sub, `${pointer}${suffix}`, stack));
  };
  return { schema: visit(root, "", []) as JsonSchema, cuts };
}

/** `inlineRefs` results by root schema: the five dialects of one tool expand the same input schema. */
const inlined = new WeakMap<object, { schema: JsonSchema; cuts: RecursionCut[] }>();

/**
 * `inlineRefs(root)`, computed once per root object and shared: the dialect converters only read the
 * result (each builds its own output), so they must not change it.
 */
export function inlineRefsShared(root: JsonSchema): {
  readonly schema: JsonSchema;
  readonly cuts: readonly RecursionCut[];
} {
  let result = inlined.get(root);
  if (!result) {
    result = inlineRefs(root);
    inlined.set(root, result);
  }
  return result;
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
