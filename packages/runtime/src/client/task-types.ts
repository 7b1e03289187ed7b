import type { CallToolResult, ProtocolEra } from "@modelcontextprotocol/client";
import type { ToolSpec } from "./call.ts";
import type { ToolCallResult } from "./result.ts";
import type { RawResponse, TappableClient, TransportTap } from "./transport-tap.ts";

/** A task as the server reports it, in the same form for both protocol eras. */
export interface TaskInfo {
  taskId: string;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  /** How long the server keeps the task after its creation (ms); `null`: for ever. */
  ttlMs: number | null;
  /** How often to poll (ms), as the server suggests. */
  pollIntervalMs?: number;
}

/** What a 2026-07-28 task asks its client (`inputRequests` of `tasks/get`), by key. */
export type TaskInputRequests = Record<string, { method: string; params?: Record<string, unknown> }>;

/** Options of one task call. */
export interface TaskCallOptions {
  /** How long the server should keep the task (a 2025 client's `task.ttl`; 2026-07-28 servers choose). */
  ttlMs?: number;
  /** Progress the tool reports while it runs (2025 servers send it on the call's progress token). */
  onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /**
   * Answers what a 2026-07-28 task asks (its `input_required` status): the responses by key,
   * sent with `tasks/update`. Without it, `result()` waits until somebody else answers. It also
   * answers the `input_required` rounds of a call that becomes a task only later (a tool tagged
   * `@task deferred`), sent again with the answers until the server creates the task.
   */
  onInput?: (requests: TaskInputRequests) => Promise<Record<string, unknown>>;
}

/** A tool call running as an MCP task on the server. */
export interface ToolTask<T> {
  readonly taskId: string;
  /** The task as created. */
  readonly created: TaskInfo;
  /** The task now (`tasks/get`). */
  status(): Promise<TaskInfo>;
  /**
   * Waits until the task is over and returns its result as a typed call does (`{ ok: false }` for
   * a tool error). A task that failed or was cancelled throws a `TaskError`.
   */
  result(options?: { signal?: AbortSignal }): Promise<ToolCallResult<T>>;
  /** Asks the server to cancel the task (`tasks/cancel`); a task already over stays as it is. */
  cancel(): Promise<void>;
}

/** A task that did not complete: it failed on the server, was cancelled, or a task request failed. */
export class TaskError extends Error {
  override readonly name = "TaskError";
  constructor(
    message: string,
    /** The JSON-RPC error code, when the server sent one. */
    readonly code?: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The parts of an SDK `Client` a task call needs. */
export interface TaskCallingClient extends TappableClient {
  getProtocolEra?(): ProtocolEra | undefined;
}

/** Starts a tool as a task; the generated client fixes its types. */
export type TaskStarter = (
  spec: ToolSpec,
  args: unknown,
  options?: TaskCallOptions,
) => Promise<ToolTask<any>>;

/** What starting a task is given, in either era. */
export interface TaskStart {
  spec: ToolSpec;
  /** The checked arguments. */
  input: Record<string, unknown>;
  callOptions: TaskCallOptions;
  /** Requests beside the SDK client, on its transport (its codecs refuse task results). */
  tap: TransportTap;
  /** Turns the tool's raw result into what a typed call returns. */
  settle(raw: CallToolResult): ToolCallResult<any>;
}

/** The result of a task request, or its JSON-RPC error as a `TaskError`. */
export function resultOf(response: RawResponse): Record<string, unknown> {
  if (response.kind === "result") return response.result;
  throw new TaskError(response.error.message, response.error.code, response.error.data);
}

/** Whether a task is over (its status can no longer change). */
export function isOver(status: TaskInfo["status"]): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** A task of either era as a `TaskInfo`, reading its times under the era's names. */
export function taskInfo(t: Record<string, unknown>, ttl: string, poll: string): TaskInfo {
  return {
    taskId: String(t.taskId),
    status: t.status as TaskInfo["status"],
    ...(typeof t.statusMessage === "string" ? { statusMessage: t.statusMessage } : {}),
    createdAt: String(t.createdAt),
    lastUpdatedAt: String(t.lastUpdatedAt),
    ttlMs: typeof t[ttl] === "number" ? (t[ttl] as number) : null,
    ...(typeof t[poll] === "number" ? { pollIntervalMs: t[poll] as number } : {}),
  };
}
