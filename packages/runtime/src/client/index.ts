export {
  type CallOptions,
  createToolCaller,
  type ToolCaller,
  type ToolCallingClient,
  type ToolSpec,
  type TypedClientOptions,
} from "./call.ts";
export {
  type ConnectableServer,
  type Connection,
  type ConnectOptions,
  connectHttp,
  connectInMemory,
  connectStdio,
} from "./connect.ts";
export {
  expectOk,
  ToolCallError,
  type ToolCallResult,
  type ToolContent,
  type ToolFailure,
  type ToolSuccess,
  textOf,
} from "./result.ts";
