/**
 * `@mcp-gen/runtime/client`: connections to MCP servers (stdio, Streamable HTTP, in-memory) over
 * the official SDK client (`@modelcontextprotocol/client`, both protocol eras), and what generated
 * typed clients are built on (`createToolCaller`, `createResourceReader`, `createPromptGetter`).
 */

export { expandUriTemplate } from "@mcp-gen/schema/uri-template";
export {
  type CallOptions,
  createToolCaller,
  type ToolCaller,
  type ToolCallingClient,
  type ToolSpec,
  type TypedClientOptions,
  toToolCallResult,
} from "./call.ts";
export {
  type ConnectableServer,
  type ConnectHttpOptions,
  type Connection,
  type ConnectStdioOptions,
  connectHttp,
  connectInMemory,
  connectStdio,
  type McpGenConnectOptions,
  type ProtocolChoice,
  type ProtocolEra,
  type StdioConnection,
} from "./connect.ts";
export { oauthClientCredentials, oauthDpop, oauthEnterprise, oauthJwtBearer } from "./oauth.ts";
export {
  createPromptGetter,
  createResourceReader,
  type PromptGetter,
  type PromptGettingClient,
  type PromptMessages,
  type PromptSpec,
  type RequestCallOptions,
  type ResourceContentsList,
  type ResourceReader,
  type ResourceReadingClient,
  type ResourceSpec,
} from "./resources.ts";
export {
  expectOk,
  ToolCallError,
  type ToolCallFailure,
  type ToolCallResult,
  type ToolCallSuccess,
  type ToolContent,
  textOf,
} from "./result.ts";
export {
  type TaskCallingClient,
  type TaskCallOptions,
  TaskError,
  type TaskInfo,
  type TaskInputRequests,
  type TaskStarter,
  type ToolTask,
} from "./task-types.ts";
export { createTaskStarter } from "./tasks.ts";
export {
  type RawNotification,
  type RawResponse,
  type TappableClient,
  type TransportTap,
  tapTransport,
} from "./transport-tap.ts";
