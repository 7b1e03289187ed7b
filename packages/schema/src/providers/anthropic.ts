import type { ContractTool, JsonSchema } from "../contract.ts";
import { escapeToken, isSchemaObject } from "../schema-utils.ts";
import { inlineRefsShared } from "./inline.ts";
import { type Conversion, constraintText, describeIn } from "./model.ts";
import { PROPERTY_NAME_RULES } from "./rules.ts";

const ROOT_COMBINATORS = ["anyOf", "oneOf", "allOf"] as const;

/**
 * Anthropic Messages API tool: `{ name, description, input_schema }`. The input schema stays
 * JSON Schema 2020-12 with references expanded (the API rejects `$ref`; recursive types are expanded
 * a few levels deep, see `inlineRefs`); combinators at the root,
 * which the API rejects, move into the description.
 */
export function toAnthropic(tool: ContractTool, conversion: Conversion): Record<string, unknown> | undefined {
  const inlined = inlineRefsShared(tool.inputSchema);
  conversion.bounded(inlined.cuts);
  const schema: JsonSchema = { ...inlined.schema };
  const sentences: string[] = [];
  for (const key of ROOT_COMBINATORS) {
    if (!(key in schema)) continue;
    const branches = schema[key];
    delete schema[key];
    if (Array.isArray(branches) && branches.some((b) => isSchemaObject(b) && "properties" in b)) {
      const declared = isSchemaObject(schema.properties) ? Object.keys(schema.properties) : [];
      const extra = branches.flatMap((b) =>
        isSchemaObject(b) && isSchemaObject(b.properties) ? Object.keys(b.properties) : [],
      );
      const missing = [...new Set(extra.filter((p) => !declared.includes(p)))];
      if (missing.length > 0) {
        conversion.fail(
          `/${key}`,
          "anthropic/no-top-level-combinator",
          `input_schema may not use ${key} at the top level, and its branches declare properties (${missing.join(", ")}) the root does not`,
        );
      }
    }
    sentences.push(constraintText(key, branches));
    conversion.move("", key, "described", constraintText(key, branches));
  }
  describeIn(schema, sentences);
  checkPropertyNames(schema, "", conversion);
  const out: Record<string, unknown> = { name: tool.name };
  if (tool.description) out.description = tool.description;
  out.input_schema = schema;
  return out;
}

function checkPropertyNames(schema: unknown, pointer: string, conversion: Conversion): void {
  if (!isSchemaObject(schema)) return;
  if (isSchemaObject(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties)) {
      const at = `${pointer}/properties/${escapeToken(name)}`;
      if (!PROPERTY_NAME_RULES.anthropic.test(name)) {
        conversion.fail(
          at,
          "anthropic/property-name",
          `property name "${name}" does not match ${PROPERTY_NAME_RULES.anthropic.source}`,
        );
      }
      checkPropertyNames(sub, at, conversion);
    }
  }
  for (const key of ["items", "additionalProperties"])
    checkPropertyNames(schema[key], `${pointer}/${key}`, conversion);
  for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"]) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const [i, s] of list.entries()) checkPropertyNames(s, `${pointer}/${key}/${i}`, conversion);
  }
}
