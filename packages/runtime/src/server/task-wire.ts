import type { ProtocolEra } from "@modelcontextprotocol/server";
import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolErrorCode,
  type Result,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { TASKS_EXTENSION } from "../tasks-extension.ts";
import type { InputRequest } from "./input/channel.ts";
import type { TaskRecord } from "./task-store.ts";

// The wire shapes of tasks: 2025-11-25 (`ttl`, `pollInterval`, `{ task }`) and the 2026-07-28
// extension (`ttlMs`, `pollIntervalMs`, flat `CreateTaskResult`, `DetailedTask`).

/** Whether a 2026-07-28 request's client declared the tasks extension. */
export function clientHasTasks(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as
    | { extensions?: Record<string, unknown> }
    | undefined;
  const extension = capabilities?.extensions?.[TASKS_EXTENSION];
  return extension !== undefined && extension !== null && typeof extension === "object";
}

/** A 2025-11-25 `Task` (`ttl`, `pollInterval`). */
export function legacyTask(task: TaskRecord): Record<string, unknown> {
  return wireTask(task, "ttl", "pollInterval");
}

/** The 2026-07-28 `Task` fields (`ttlMs`, `pollIntervalMs`). */
export function modernTask(task: TaskRecord): Record<string, unknown> {
  return wireTask(task, "ttlMs", "pollIntervalMs");
}

/** A task record on the wire, under each era's names of its times. */
function wireTask(task: TaskRecord, ttl: string, poll: string): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    [ttl]: task.ttlMs,
    ...(task.pollIntervalMs !== undefined ? { [poll]: task.pollIntervalMs } : {}),
  };
}

/** A 2026-07-28 `DetailedTask` (`tasks/get`): the result, error or open questions inline. */
export function detailedTask(
  task: TaskRecord,
  inputRequests: Readonly<Record<string, InputRequest>> | undefined,
): Record<string, unknown> {
  const detail: Record<string, unknown> = { resultType: "complete", ...modernTask(task) };
  // The inlined result is a 2026-07-28 CallToolResult: it carries its own resultType.
  if (task.status === "completed")
    detail.result = { resultType: "complete", ...(task.result ?? { content: [] }) };
  if (task.status === "failed")
    detail.error = task.error ?? { code: ProtocolErrorCode.InternalError, message: "failed" };
  if (task.status === "input_required") {
    detail.inputRequests = { ...inputRequests };
  }
  return detail;
}

/** The `CreateTaskResult` of either era. */
export function created(task: TaskRecord, era: ProtocolEra): Result {
  return (
    era === "legacy" ? { task: legacyTask(task) } : { resultType: "task", ...modernTask(task) }
  ) as Result;
}

/** What a task that failed at the protocol level keeps as its error. */
export function errorOf(error: unknown): { code: number; message: string; data?: unknown } {
  const { code, message, data } = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
  return {
    code: typeof code === "number" ? code : ProtocolErrorCode.InternalError,
    message: typeof message === "string" && message ? message : String(error),
    ...(data !== undefined ? { data } : {}),
  };
}
