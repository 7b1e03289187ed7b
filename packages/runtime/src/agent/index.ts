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
  type AgentRunOptions,
  type ContextOptions,
  createAgent,
  type ToolSourceInput,
} from "./agent.ts";
export { type ParsedArguments, parseToolArguments } from "./arguments.ts";
export type { ListedResource, ListedResourceTemplate, OfferedPrompt } from "./context/catalog.ts";
export { IMAGE_TYPES } from "./context/resource-content.ts";
export type { ContextRequestOptions, SourceContext } from "./context/source-context.ts";
export { AgentError, type AgentErrorCode } from "./errors.ts";
export type { AgentCallOutcome, AgentEvent, AgentResult, StopReason } from "./events.ts";
export { ExtractError, type ExtractOptions, type SubmitAttempt } from "./extract.ts";
export type {
  AgentImageContent,
  AgentMessage,
  AgentTextContent,
  AssistantMessage,
  ModelReply,
  ModelStop,
  ModelToolCall,
  ResourceContent,
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
export type {
  AgentTool,
  AgentToolExecution,
  LoadedTools,
  ToolNotice,
  ToolSource,
} from "./tools/agent-tool.ts";
export type { CodeToolOptions } from "./tools/code-tool.ts";
export type { GeneratedNormalize, GeneratedProviderTools } from "./tools/dialects.ts";
export { type LocalToolsOptions, localTools } from "./tools/local-source.ts";
export { type McpToolsOptions, mcpTools } from "./tools/mcp-source.ts";
export { portableToolName } from "./tools/names.ts";
export type { OfferedTool, ToolAnnotations, Toolset } from "./tools/toolset.ts";
export { formatEvent, type TraceOptions } from "./trace.ts";
