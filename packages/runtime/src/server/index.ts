/**
 * `@mcp-gen/runtime/server`: the server alone (what `mcp-gen serve` loads), without the
 * client, agent and provider parts of the package's main entry, which re-exports all of this.
 * Importing it loads what a stdio server of plain tools runs and little else: the HTTP building
 * blocks are `@mcp-gen/runtime/server/http`, the task stores `@mcp-gen/runtime/server/tasks`, and
 * URI templates `@mcp-gen/schema/uri-template` (`compileUriTemplate`: the server loads it only for a
 * manifest with resources).
 */

/** The protocol era a server speaks: `"modern"` (2026-07-28), `"legacy"` (2025 revisions); the SDK's own type. */
export type { ProtocolEra } from "@modelcontextprotocol/server";
export { TASKS_EXTENSION } from "../tasks-extension.ts";
export { type CallOutcome, type CallRecord, jsonCallLog } from "./call-log.ts";
export type { ListenRelay } from "./connections.ts";
export { createServerFactory, type ServerFactory } from "./create-server.ts";
export { reviveDates, reviveUrls } from "./dates.ts";
export type { HttpAuthOptions } from "./http/auth/options.ts";
export type { Refusal } from "./http/guard.ts";
export type { HttpOptions, ResolvedHttpOptions } from "./http/options.ts";
export {
  type Completer,
  defineManifest,
  type ManifestIcon,
  type ManifestPrompt,
  type ManifestResource,
  type ManifestResourceTemplate,
  type ManifestTool,
  type PromptDefinition,
  type ResourceAnnotations,
  type ResourceDefinition,
  type ResourceTemplateDefinition,
  type ServerManifest,
  type StringCoercions,
  type ToolDefinition,
} from "./manifest.ts";
export { createServer, type McpGenServer } from "./mcp-gen-server.ts";
export type { McpGenServerEvent, McpGenServerOptions } from "./options.ts";
export { type DrainResult, type RunningServer, type ServeOptions, serve } from "./serve.ts";
export { serveOverStdio } from "./stdio.ts";
export type {
  MemoryTaskStoreOptions,
  NewTask,
  TaskFailure,
  TaskLease,
  TaskPage,
  TaskRecord,
  TaskRun,
  TaskStatus,
  TaskStore,
} from "./task-store.ts";
export type { ServerTaskOptions, TaskSupport } from "./tasks.ts";
