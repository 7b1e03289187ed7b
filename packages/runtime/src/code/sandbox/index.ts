export {
  type BindClientToolsOptions,
  bindClientTools,
  bindManifest,
  isDestructive,
  type ToolCallingPeer,
} from "./bindings.ts";
export {
  type BindClientReadsOptions,
  bindClientReads,
  bindManifestReads,
  type ReadingPeer,
} from "./read-bindings.ts";
export { createSandbox, DEFAULT_LIMITS, run, type Sandbox, type SandboxOptions } from "./sandbox.ts";
export type {
  LogEntry,
  PermissionRequest,
  ProgramAnswer,
  ProgramApi,
  ProgramCallOutcome,
  ProgramCallRecord,
  ProgramRunOptions,
  ProgramTool,
  RunError,
  RunErrorKind,
  RunLimits,
  RunResult,
  ToolCallOptions,
} from "./types.ts";
export {
  RELAY_CAPABILITIES,
  type RelayedCall,
  relayUpstream,
  type UpstreamRelay,
} from "./upstream-relay.ts";
