/**
 * `@mcp-gen/runtime/testing`: test support for code built on the agent runtime — a scripted
 * model endpoint the official Anthropic and OpenAI SDKs talk to over real HTTP on 127.0.0.1.
 */
export { checkAnthropicRequest } from "./anthropic-wire.ts";
export { checkOpenAiRequest } from "./openai-wire.ts";
export type { ScriptedReply, ScriptedRequest, ScriptedToolCall, ScriptStep } from "./script.ts";
export { type ScriptedModel, type ScriptedModelOptions, startScriptedModel } from "./scripted-model.ts";
