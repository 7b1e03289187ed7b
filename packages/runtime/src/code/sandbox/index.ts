export {
  type BindClientToolsOptions,
  bindClientTools,
  bindManifest,
  isDestructive,
  type ToolCallingPeer,
} from "./bindings.ts";
export { createSandbox, DEFAULT_LIMITS, run, type Sandbox, type SandboxOptions } from "./sandbox.ts";
export type {
  CallOutcome,
  CallRecord,
  LogEntry,
  PermissionRequest,
  ProgramApi,
  RunError,
  RunErrorKind,
  RunLimits,
  RunOptions,
  RunResult,
  ToolBinding,
  ToolCallOptions,
} from "./types.ts";
