/**
 * The tool-definition dialects mcp-gen emits, one file each in `generated/<server>/providers/`:
 *
 * - `anthropic`: Messages API `tools` (`name`, `description`, `input_schema`).
 * - `openai`: Chat Completions `tools` (`type: "function"`), `strict: false`.
 * - `openai-strict`: the same with `strict: true`: every property required (optional ones nullable),
 *   every object closed.
 * - `gemini`: a `Tool` with `functionDeclarations[].parameters` in Gemini's OpenAPI schema subset.
 * - `gemini-json-schema`: a `Tool` with `functionDeclarations[].parametersJsonSchema`.
 */
export { DIALECTS, type Dialect } from "@mcp-gen/schema";

/** An entry of `anthropic.json`. */
export interface AnthropicToolDefinition {
  name: string;
  description?: string;
  input_schema: { type: "object"; [keyword: string]: unknown };
}

/** An entry of `openai.json` / `openai-strict.json`. */
export interface OpenAiToolDefinition {
  type: "function";
  function: { name: string; description?: string; parameters: Record<string, unknown>; strict: boolean };
}

/** One function declaration of `gemini.json` (`parameters`) or `gemini-json-schema.json` (`parametersJsonSchema`). */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  parametersJsonSchema?: Record<string, unknown>;
}

/** `gemini.json` / `gemini-json-schema.json`: one Gemini `Tool`. */
export interface GeminiToolDefinition {
  functionDeclarations: GeminiFunctionDeclaration[];
}
