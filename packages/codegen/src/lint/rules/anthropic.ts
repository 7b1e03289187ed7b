import { isSchemaObject, PROPERTY_NAME_RULES, TOOL_NAME_RULES } from "@mcp-gen/schema";
import { duplicateNames, type Violation, violation, walkSchema } from "./violation.ts";

/**
 * Checks `anthropic.json` (Messages API `tools`): names, an object `input_schema` without
 * top-level `anyOf`/`oneOf`/`allOf`, no `$ref`, and property names the API accepts.
 */
export function checkAnthropicTools(tools: unknown): Violation[] {
  if (!Array.isArray(tools))
    return [violation("anthropic/shape", "", "anthropic.json must be an array of tools")];
  const out: Violation[] = [];
  tools.forEach((tool, i) => {
    const at = `/${i}`;
    if (!isSchemaObject(tool)) {
      out.push(violation("anthropic/shape", at, "a tool must be an object"));
      return;
    }
    if (typeof tool.name !== "string" || !TOOL_NAME_RULES.anthropic.test(tool.name))
      out.push(
        violation(
          "anthropic/tool-name",
          `${at}/name`,
          `name ${JSON.stringify(tool.name)} must match ${TOOL_NAME_RULES.anthropic.source}`,
        ),
      );
    const schema = tool.input_schema;
    if (!isSchemaObject(schema) || schema.type !== "object") {
      out.push(
        violation(
          "anthropic/input-schema-object",
          `${at}/input_schema`,
          'input_schema must be a JSON Schema with "type": "object"',
        ),
      );
      return;
    }
    for (const key of ["anyOf", "oneOf", "allOf"])
      if (key in schema)
        out.push(
          violation(
            "anthropic/no-top-level-combinator",
            `${at}/input_schema/${key}`,
            `input_schema does not support ${key} at the top level`,
          ),
        );
    walkSchema(schema, `${at}/input_schema`, (node, pointer) => {
      if ("$ref" in node)
        out.push(violation("anthropic/no-ref", `${pointer}/$ref`, "input_schema may not use $ref"));
      if (isSchemaObject(node.properties))
        for (const name of Object.keys(node.properties))
          if (!PROPERTY_NAME_RULES.anthropic.test(name))
            out.push(
              violation(
                "anthropic/property-name",
                `${pointer}/properties`,
                `property name "${name}" must match ${PROPERTY_NAME_RULES.anthropic.source}`,
              ),
            );
    });
  });
  out.push(
    ...duplicateNames(
      tools.map((t) => (isSchemaObject(t) ? String(t.name) : "")),
      (i) => `/${i}/name`,
      "anthropic/unique-names",
    ),
  );
  return out;
}
