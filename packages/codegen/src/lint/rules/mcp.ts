import type { Contract } from "@mcp-gen/schema";
import {
  isSchemaObject,
  metaSchemaErrors,
  resolveLocalRef,
  scanMcpHeaders,
  TOOL_NAME_RULES,
} from "@mcp-gen/schema";
import { duplicateNames, type Violation, violation, walkSchema } from "./violation.ts";

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

/**
 * Checks a contract against MCP's tool rules (2025-11-25): names, object input and output schemas,
 * valid JSON Schema with resolvable references, annotation types. Pointers point into the contract.
 */
export function checkMcpRules(contract: Contract): Violation[] {
  const out: Violation[] = [];
  contract.tools.forEach((tool, i) => {
    const at = `/tools/${i}`;
    if (!TOOL_NAME_RULES.mcp.test(tool.name))
      out.push(
        violation(
          "mcp/tool-name",
          `${at}/name`,
          `name "${tool.name}" should be 1-128 characters of A-Z a-z 0-9 _ - .`,
          "warning",
        ),
      );
    if (!tool.description)
      out.push(
        violation(
          "mcp/description",
          at,
          "a tool without a description: models choose tools by it",
          "warning",
        ),
      );
    // MCP 2026-07-28: clients must reject a tool whose x-mcp-header declarations break the rules.
    for (const problem of scanMcpHeaders(tool.inputSchema).problems)
      out.push(violation("mcp/x-mcp-header", `${at}/inputSchema${problem.pointer}`, problem.message));
    for (const slot of ["inputSchema", "outputSchema"] as const) {
      const schema = tool[slot];
      if (schema === undefined) continue;
      if (!isSchemaObject(schema) || schema.type !== "object") {
        out.push(
          violation(
            `mcp/${slot === "inputSchema" ? "input" : "output"}-schema-object`,
            `${at}/${slot}`,
            `${slot} must be a JSON Schema with "type": "object" at its root`,
          ),
        );
        continue;
      }
      const invalid = metaSchemaErrors(schema);
      if (invalid.length > 0) {
        for (const e of invalid)
          out.push(
            violation(
              "mcp/json-schema",
              `${at}/${slot}${e.instancePath}`,
              `invalid JSON Schema: ${e.message}`,
            ),
          );
        continue;
      }
      walkSchema(schema, `${at}/${slot}`, (node, pointer) => {
        if (typeof node.$ref === "string" && resolveLocalRef(schema, node.$ref) === undefined)
          out.push(
            violation(
              "mcp/ref-resolves",
              `${pointer}/$ref`,
              `$ref "${node.$ref}" does not resolve inside the schema: that part accepts any value`,
              "warning",
            ),
          );
        if (
          Array.isArray(node.required) &&
          isSchemaObject(node.properties) &&
          node.additionalProperties === false
        )
          for (const name of node.required)
            if (!(String(name) in node.properties))
              out.push(
                violation(
                  "mcp/required-declared",
                  `${pointer}/required`,
                  `required property "${String(name)}" is not declared, and no other property is allowed`,
                ),
              );
      });
    }
    const annotations = tool.annotations as Record<string, unknown> | undefined;
    if (annotations !== undefined) {
      for (const hint of HINTS)
        if (annotations[hint] !== undefined && typeof annotations[hint] !== "boolean")
          out.push(violation("mcp/annotations", `${at}/annotations/${hint}`, `${hint} must be a boolean`));
      if (annotations.title !== undefined && typeof annotations.title !== "string")
        out.push(violation("mcp/annotations", `${at}/annotations/title`, "title must be a string"));
    }
  });
  out.push(
    ...duplicateNames(
      contract.tools.map((t) => t.name),
      (i) => `/tools/${i}/name`,
      "mcp/unique-names",
    ),
  );
  return out;
}
