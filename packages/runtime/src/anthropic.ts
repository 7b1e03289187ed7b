/**
 * `@mcp-gen/runtime/anthropic`: the agent's model adapter for Anthropic's Messages API, over the
 * official `@anthropic-ai/sdk` (an optional peer dependency: install it to use this entry).
 */
export { type AnthropicModelOptions, anthropicModel, toAnthropicMessages } from "./agent/model/anthropic.ts";
