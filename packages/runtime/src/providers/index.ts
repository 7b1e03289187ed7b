export {
  type AnthropicToolDefinition,
  DIALECTS,
  type Dialect,
  type GeminiFunctionDeclaration,
  type GeminiToolDefinition,
  type OpenAiToolDefinition,
} from "./dialects.ts";
export { type ArgumentPlan, applyArgumentPlan } from "./normalize.ts";
