import { GEMINI_JSON_SCHEMA, GEMINI_SCHEMA, isSchemaObject, TOOL_NAME_RULES, typesOf } from "@mcp-gen/schema";
import { duplicateNames, type Violation, violation, walkSchema } from "./violation.ts";

/**
 * Checks `gemini.json` (`parameters` in Gemini's `Schema` subset) or `gemini-json-schema.json`
 * (`parametersJsonSchema`): function names, an OBJECT root, and only the fields each form takes.
 */
export function checkGeminiTool(tool: unknown, form: "parameters" | "parametersJsonSchema"): Violation[] {
  const declarations = isSchemaObject(tool) ? tool.functionDeclarations : undefined;
  if (!Array.isArray(declarations))
    return [violation("gemini/shape", "", 'a Gemini tool must be { "functionDeclarations": [...] }')];
  const out: Violation[] = [];
  declarations.forEach((d, i) => {
    const at = `/functionDeclarations/${i}`;
    if (!isSchemaObject(d)) {
      out.push(violation("gemini/shape", at, "a function declaration must be an object"));
      return;
    }
    if (typeof d.name !== "string" || !TOOL_NAME_RULES.gemini.test(d.name))
      out.push(
        violation(
          "gemini/tool-name",
          `${at}/name`,
          `name ${JSON.stringify(d.name)} must match ${TOOL_NAME_RULES.gemini.source}`,
        ),
      );
    const other = form === "parameters" ? "parametersJsonSchema" : "parameters";
    if (other in d)
      out.push(
        violation(
          "gemini/shape",
          `${at}/${other}`,
          `this file uses ${form}; ${other} is mutually exclusive with it`,
        ),
      );
    const schema = d[form];
    if (schema === undefined) return;
    if (form === "parameters") out.push(...checkParameters(schema, `${at}/parameters`));
    else out.push(...checkJsonSchema(schema, `${at}/parametersJsonSchema`));
  });
  out.push(
    ...duplicateNames(
      declarations.map((d) => (isSchemaObject(d) ? String(d.name) : "")),
      (i) => `${"/functionDeclarations"}/${i}/name`,
      "gemini/unique-names",
    ),
  );
  return out;
}

function checkParameters(schema: unknown, base: string): Violation[] {
  const out: Violation[] = [];
  if (!isSchemaObject(schema) || schema.type !== "OBJECT")
    return [violation("gemini/parameters-object", base, 'parameters must be a Schema with "type": "OBJECT"')];
  walkSchema(schema, base, (node, pointer) => {
    for (const key of Object.keys(node))
      if (!GEMINI_SCHEMA.fields.has(key))
        out.push(violation("gemini/schema-field", `${pointer}/${key}`, `Schema has no field "${key}"`));
    if (!GEMINI_SCHEMA.types.has(node.type as string) && !("anyOf" in node))
      out.push(
        violation(
          "gemini/type",
          `${pointer}/type`,
          `type must be one of ${[...GEMINI_SCHEMA.types].join(", ")}`,
        ),
      );
    if (
      "enum" in node &&
      (node.type !== "STRING" || !(node.enum as unknown[]).every((v) => typeof v === "string"))
    )
      out.push(violation("gemini/enum-string", `${pointer}/enum`, "enum is only for STRING values"));
    if (
      node.format !== undefined &&
      !GEMINI_SCHEMA.formats[node.type as string]?.includes(String(node.format))
    )
      out.push(
        violation(
          "gemini/format",
          `${pointer}/format`,
          `format "${String(node.format)}" is not supported for ${String(node.type)}`,
        ),
      );
    if (
      node.type === "OBJECT" &&
      (!isSchemaObject(node.properties) || Object.keys(node.properties).length === 0)
    )
      out.push(
        violation(
          "gemini/object-properties",
          `${pointer}/properties`,
          "properties should be non-empty for OBJECT type",
        ),
      );
    if (Array.isArray(node.required) && isSchemaObject(node.properties))
      for (const name of node.required)
        if (!(String(name) in node.properties))
          out.push(
            violation(
              "gemini/required-declared",
              `${pointer}/required`,
              `required property "${String(name)}" is not in properties`,
            ),
          );
  });
  return out;
}

function checkJsonSchema(schema: unknown, base: string): Violation[] {
  const out: Violation[] = [];
  if (!isSchemaObject(schema) || !typesOf(schema).includes("object"))
    return [
      violation(
        "gemini/parameters-object",
        base,
        'parametersJsonSchema must describe an object ("type": "object")',
      ),
    ];
  walkSchema(schema, base, (node, pointer) => {
    for (const key of Object.keys(node))
      if (!GEMINI_JSON_SCHEMA.keywords.has(key))
        out.push(
          violation(
            "gemini/json-schema-keyword",
            `${pointer}/${key}`,
            `"${key}" is not among the JSON Schema keywords Gemini supports`,
          ),
        );
  });
  return out;
}
