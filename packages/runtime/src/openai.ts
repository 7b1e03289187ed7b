/**
 * `@mcp-gen/runtime/openai`: the agent's model adapter for OpenAI's Chat Completions API, over the
 * official `openai` package (an optional peer dependency: install it to use this entry).
 */
export { type OpenAiModelOptions, openaiModel, toOpenAiMessages } from "./agent/model/openai.ts";
