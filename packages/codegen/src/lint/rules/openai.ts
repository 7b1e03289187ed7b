import { isSchemaObject, OPENAI_STRICT, TOOL_NAME_RULES, typesOf } from "@mcp-gen/schema";
import { duplicateNames, type Violation, violation, walkSchema } from "./violation.ts";

/**
 * Checks `openai.json` / `openai-strict.json` (Chat Completions function tools). Every tool needs a
 * valid name and an object `parameters`; a tool with `strict: true` must also meet strict mode:
 * closed objects, every property required, only supported keywords, depth and size limits.
 */
export function checkOpenAiTools(tools: unknown): Violation[] {
  if (!Array.isArray(tools)) return [violation("openai/shape", "", "an OpenAI tools file must be an array")];
  const out: Violation[] = [];
  tools.forEach((tool, i) => {
    const at = `/${i}`;
    const fn = isSchemaObject(tool) ? tool.function : undefined;
    if (!isSchemaObject(tool) || tool.type !== "function" || !isSchemaObject(fn)) {
      out.push(violation("openai/shape", at, 'a tool must be { "type": "function", "function": {...} }'));
      return;
    }
    if (typeof fn.name !== "string" || !TOOL_NAME_RULES.openai.test(fn.name))
      out.push(
        violation(
          "openai/tool-name",
          `${at}/function/name`,
          `name ${JSON.stringify(fn.name)} must match ${TOOL_NAME_RULES.openai.source}`,
        ),
      );
    const params = fn.parameters;
    if (!isSchemaObject(params) || !typesOf(params).includes("object")) {
      out.push(
        violation(
          "openai/parameters-object",
          `${at}/function/parameters`,
          'parameters must be a JSON Schema with "type": "object"',
        ),
      );
      return;
    }
    if (fn.strict === true) out.push(...checkStrict(params, `${at}/function/parameters`));
  });
  out.push(
    ...duplicateNames(
      tools.map((t) => (isSchemaObject(t) && isSchemaObject(t.function) ? String(t.function.name) : "")),
      (i) => `/${i}/function/name`,
      "openai/unique-names",
    ),
  );
  return out;
}

function checkStrict(params: Record<string, unknown>, base: string): Violation[] {
  const out: Violation[] = [];
  if ("anyOf" in params)
    out.push(
      violation(
        "openai-strict/root-object",
        `${base}/anyOf`,
        "the root of a strict schema must not be anyOf",
      ),
    );
  let properties = 0;
  walkSchema(params, base, (node, pointer, depth) => {
    for (const key of Object.keys(node))
      if (!OPENAI_STRICT.keywords.has(key))
        out.push(
          violation("openai-strict/keyword", `${pointer}/${key}`, `strict mode does not support "${key}"`),
        );
    const isObject = typesOf(node).includes("object") || "properties" in node;
    if (!isObject) return;
    if (depth + 1 > OPENAI_STRICT.maxDepth)
      out.push(
        violation(
          "openai-strict/max-depth",
          pointer,
          `more than ${OPENAI_STRICT.maxDepth} levels of object nesting`,
        ),
      );
    if (node.additionalProperties !== false)
      out.push(
        violation(
          "openai-strict/closed-objects",
          pointer,
          "every object must set additionalProperties: false",
        ),
      );
    const names = isSchemaObject(node.properties) ? Object.keys(node.properties) : [];
    properties += names.length;
    const required = Array.isArray(node.required) ? node.required : [];
    for (const name of names)
      if (!required.includes(name))
        out.push(
          violation(
            "openai-strict/all-required",
            `${pointer}/required`,
            `property "${name}" must be listed in required (optional values are nullable instead)`,
          ),
        );
  });
  if (properties > OPENAI_STRICT.maxProperties)
    out.push(
      violation(
        "openai-strict/max-properties",
        base,
        `${properties} object properties (at most ${OPENAI_STRICT.maxProperties})`,
      ),
    );
  return out;
}
