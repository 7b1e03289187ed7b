import { escapeToken, isSchemaObject } from "@mcp-gen/schema";

/** A broken rule: its id (`<target>/<rule>`), where (JSON pointer into the checked document) and what. */
export interface Violation {
  rule: string;
  pointer: string;
  message: string;
  severity: "error" | "warning";
}

export const violation = (
  rule: string,
  pointer: string,
  message: string,
  severity: Violation["severity"] = "error",
): Violation => ({ rule, pointer, message, severity });

/** Visits a schema and every subschema with its pointer (`properties`, `items`, `anyOf` … and `$defs`). */
export function walkSchema(
  schema: unknown,
  pointer: string,
  visit: (node: Record<string, unknown>, pointer: string, depth: number) => void,
  depth = 0,
): void {
  if (!isSchemaObject(schema)) return;
  visit(schema, pointer, depth);
  for (const [key, value] of Object.entries(schema)) {
    if (
      ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"].includes(key) &&
      isSchemaObject(value)
    ) {
      for (const [name, sub] of Object.entries(value))
        walkSchema(
          sub,
          `${pointer}/${key}/${escapeToken(name)}`,
          visit,
          key === "properties" ? depth + 1 : depth,
        );
    } else if (["anyOf", "oneOf", "allOf", "prefixItems"].includes(key) && Array.isArray(value)) {
      for (const [i, sub] of value.entries()) walkSchema(sub, `${pointer}/${key}/${i}`, visit, depth);
    } else if (
      ["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"].includes(
        key,
      )
    ) {
      if (Array.isArray(value))
        for (const [i, sub] of value.entries()) walkSchema(sub, `${pointer}/${key}/${i}`, visit, depth);
      else walkSchema(value, `${pointer}/${key}`, visit, depth);
    }
  }
}

/** Names used twice in a list of definitions, as violations at the second use. */
export function duplicateNames(
  names: readonly string[],
  pointer: (i: number) => string,
  rule: string,
): Violation[] {
  const seen = new Set<string>();
  const out: Violation[] = [];
  names.forEach((name, i) => {
    if (seen.has(name)) out.push(violation(rule, pointer(i), `tool name "${name}" is used twice`));
    seen.add(name);
  });
  return out;
}
