/**
 * `@mcp-gen/runtime/agent`: the agent loop (`createAgent`), its tool sources (local handlers, MCP
 * clients) and the model interface. The provider adapters are separate entries,
 * `@mcp-gen/runtime/anthropic` and `@mcp-gen/runtime/openai`, so the agent loads no LLM SDK it does
 * not use.
 */
export {
  type Agent,
  type AgentInput,
  type AgentOptions,
  type ContextOptions,
  createAgent,
  type RunOptions,
  type ToolSourceInput,
} from "./agent.ts";
export { type ParsedArguments, parseToolArguments } from "./arguments.ts";
export type { ListedResource, ListedResourceTemplate, OfferedPrompt } from "./context/catalog.ts";
export { IMAGE_TYPES } from "./context/resource-content.ts";
export type { ContextRequestOptions, SourceContext } from "./context/source-context.ts";
export { AgentError, type AgentErrorCode } from "./errors.ts";
export type { AgentEvent, AgentResult, CallOutcome, StopReason } from "./events.ts";
export { ExtractError, type ExtractOptions, type SubmitAttempt } from "./extract.ts";
export type {
  AgentMessage,
  AssistantMessage,
  ImageContent,
  ModelReply,
  ModelStop,
  ModelToolCall,
  ResourceContent,
  TextContent,
  ToolResultEntry,
  ToolResultsMessage,
  UserContent,
  UserMessage,
} from "./messages.ts";
export type { ModelCallOptions, ModelProvider, ModelRequest } from "./model/model.ts";
export {
  type AskPolicy,
  allowAll,
  type CanUseTool,
  type PermissionContext,
  type PermissionDecision,
} from "./permission.ts";
export { type GeneratedTools, type SubmitTool, submitTool } from "./submit.ts";
export type { AgentTool, LoadedTools, ToolExecution, ToolNotice, ToolSource } from "./tools/agent-tool.ts";
export type { CodeToolOptions } from "./tools/code-tool.ts";
export type { GeneratedNormalize, GeneratedProviderTools } from "./tools/dialects.ts";
export { type LocalToolsOptions, localTools } from "./tools/local-source.ts";
export { type McpToolsOptions, mcpTools } from "./tools/mcp-source.ts";
export { providerToolName } from "./tools/names.ts";
export type { OfferedTool, ToolAnnotations, Toolset } from "./tools/toolset.ts";
export { formatEvent, type TraceOptions } from "./trace.ts";
