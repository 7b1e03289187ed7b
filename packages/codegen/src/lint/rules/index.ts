import type { Dialect } from "@mcp-gen/schema";
import { isSchemaObject } from "@mcp-gen/schema";
import { checkAnthropicTools } from "./anthropic.ts";
import { checkGeminiTool } from "./gemini.ts";
import { checkOpenAiTools } from "./openai.ts";
import { type Violation, violation } from "./violation.ts";

/** File name of each dialect in `generated/<server>/providers/`. */
export const DIALECT_FILES: Record<Dialect, string> = {
  anthropic: "anthropic.json",
  openai: "openai.json",
  "openai-strict": "openai-strict.json",
  gemini: "gemini.json",
  "gemini-json-schema": "gemini-json-schema.json",
};

/**
 * The rule checker of a dialect, run over the parsed content of its emitted file
 * (`{ $comment, tools }`). Pointers in the violations point into that file.
 *
 * @example
 * checkDialectFile("gemini", JSON.parse(readFileSync("generated/x/providers/gemini.json", "utf8")));
 */
export function checkDialectFile(dialect: Dialect, content: unknown): Violation[] {
  const tools = isSchemaObject(content) ? content.tools : undefined;
  if (!Array.isArray(tools))
    return [violation(`${dialect}/shape`, "", 'the file must be { "tools": [...] }')];
  const under = (prefix: string, list: Violation[]) =>
    list.map((v) => ({ ...v, pointer: `${prefix}${v.pointer}` }));
  switch (dialect) {
    case "anthropic":
      return under("/tools", checkAnthropicTools(tools));
    case "openai":
    case "openai-strict":
      return under("/tools", checkOpenAiTools(tools));
    case "gemini":
    case "gemini-json-schema": {
      const form = dialect === "gemini" ? "parameters" : "parametersJsonSchema";
      return tools.flatMap((tool, i) => under(`/tools/${i}`, checkGeminiTool(tool, form)));
    }
  }
}

export { checkAnthropicTools, checkGeminiTool, checkOpenAiTools, type Violation };
