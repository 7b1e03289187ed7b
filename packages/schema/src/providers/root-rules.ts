import type { JsonSchema } from "../contract.ts";
import { isSchemaObject } from "../schema-utils.ts";
import { type Conversion, constraintText, describeIn } from "./model.ts";

const COMBINATORS = ["allOf", "anyOf", "oneOf"] as const;

/** A rule between the properties of an object: `required`, or combinators (and `not`) of such rules. */
function isRequiredRule(schema: unknown): boolean {
  if (!isSchemaObject(schema)) return false;
  return Object.entries(schema).every(([key, value]) => {
    if (key === "required") return true;
    if (key === "not") return isRequiredRule(value);
    return (
      (COMBINATORS as readonly string[]).includes(key) && Array.isArray(value) && value.every(isRequiredRule)
    );
  });
}

/**
 * Root combinators that only say which properties go together (`allOf: [{ anyOf: [{ required: ["a"] },
 * { required: ["b"] }] }]`, as a hand-written input schema has them): a target that takes one object
 * schema at the root gets them in the description instead. The server still checks them.
 */
export function describeRootRules(schema: JsonSchema, conversion: Conversion): JsonSchema {
  const rules = COMBINATORS.filter(
    (k) => Array.isArray(schema[k]) && (schema[k] as unknown[]).every(isRequiredRule),
  );
  if (rules.length === 0) return schema;
  const out: JsonSchema = { ...schema };
  const sentences: string[] = [];
  for (const key of rules) {
    const text = constraintText(key, schema[key]);
    delete out[key];
    sentences.push(text);
    conversion.move("", key, "described", text);
  }
  describeIn(out, sentences);
  return out;
}
