/**
 * `@mcp-gen/runtime/providers`: the types of the generated provider tool definitions (Anthropic,
 * OpenAI, Gemini) and the argument plans that map a provider's arguments back to the contract's.
 */
export {
  type AnthropicToolDefinition,
  DIALECTS,
  type Dialect,
  type GeminiFunctionDeclaration,
  type GeminiToolDefinition,
  type OpenAiToolDefinition,
} from "./dialects.ts";
export { type ArgumentPlan, applyArgumentPlan } from "./normalize.ts";
