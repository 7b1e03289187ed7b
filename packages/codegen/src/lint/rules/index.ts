import type { Dialect } from "../../emit/providers/model.ts";
import { checkAnthropicTools } from "./anthropic.ts";
import { checkGeminiTool } from "./gemini.ts";
import { checkOpenAiTools } from "./openai.ts";
import type { Violation } from "./violation.ts";

/** File name of each dialect in `generated/<server>/providers/`. */
export const DIALECT_FILES: Record<Dialect, string> = {
  anthropic: "anthropic.json",
  openai: "openai.json",
  "openai-strict": "openai-strict.json",
  gemini: "gemini.json",
  "gemini-json-schema": "gemini-json-schema.json",
};

/**
 * The rule checker of a dialect, run over the parsed content of its emitted file. Pointers in the
 * violations point into that file.
 *
 * @example
 * checkDialectFile("gemini", JSON.parse(readFileSync("generated/x/providers/gemini.json", "utf8")));
 */
export function checkDialectFile(dialect: Dialect, content: unknown): Violation[] {
  switch (dialect) {
    case "anthropic":
      return checkAnthropicTools(content);
    case "openai":
    case "openai-strict":
      return checkOpenAiTools(content);
    case "gemini":
      return checkGeminiTool(content, "parameters");
    case "gemini-json-schema":
      return checkGeminiTool(content, "parametersJsonSchema");
  }
}

export { checkAnthropicTools, checkGeminiTool, checkOpenAiTools, type Violation };
