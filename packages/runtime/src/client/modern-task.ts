import { type CallToolResult, CLIENT_CAPABILITIES_META_KEY } from "@modelcontextprotocol/client";
import { TASKS_EXTENSION } from "../tasks-extension.ts";
import type { ToolCallResult } from "./result.ts";
import {
  resultOf,
  type TaskCallingClient,
  TaskError,
  type TaskInfo,
  type TaskInputRequests,
  type TaskStart,
  type ToolTask,
  taskInfo,
} from "./task-types.ts";

/**
 * A tool started as a 2026-07-28 task (the tasks extension): `tools/call` answered with a
 * `CreateTaskResult` (after the `input_required` rounds of a `@task deferred` tool), then polling
 * `tasks/get`, answering its questions with `tasks/update`, `tasks/cancel`.
 */
export async function startModernTask(client: TaskCallingClient, start: TaskStart): Promise<ToolTask<any>> {
  const { tap, spec, input, callOptions, settle } = start;
  const envelope = modernEnvelope(client);
  const request = (method: string, params: Record<string, unknown>, signal?: AbortSignal) =>
    tap.dispatch({ method, params: { ...params, _meta: envelope } }, signal).then(resultOf);
  let created = await request("tools/call", { name: spec.name, arguments: input });
  // A `@task deferred` tool may ask first, as a plain call (`input_required` rounds), and
  // become a task on a later round: `onInput` answers, and the call is sent again.
  while (created.resultType === "input_required" && callOptions.onInput) {
    const responses = await callOptions.onInput((created.inputRequests ?? {}) as TaskInputRequests);
    created = await request("tools/call", {
      name: spec.name,
      arguments: input,
      inputResponses: responses,
      ...(created.requestState !== undefined ? { requestState: created.requestState } : {}),
    });
  }
  if (created.resultType !== "task") {
    if (created.resultType === "complete" || created.resultType === undefined) {
      return finishedTask(settle(created as unknown as CallToolResult));
    }
    throw new TaskError(
      `tool "${spec.name}" answered ${JSON.stringify(created.resultType)} instead of a task; call it without .task()`,
    );
  }
  const info = modernInfo(created);
  const { taskId } = info;
  return {
    taskId,
    created: info,
    status: async () => modernInfo(await request("tasks/get", { taskId })),
    async result(resultOptions = {}) {
      const { signal } = resultOptions;
      let answered = new Set<string>();
      for (;;) {
        const task = await request("tasks/get", { taskId }, signal);
        const status = task.status as TaskInfo["status"];
        if (status === "completed") return settle(task.result as CallToolResult);
        if (status === "failed") {
          const error = (task.error ?? {}) as { code?: number; message?: string; data?: unknown };
          throw new TaskError(error.message ?? `task ${taskId} failed`, error.code, error.data);
        }
        if (status === "cancelled") throw new TaskError(`task ${taskId} was cancelled`);
        const requests = (task.inputRequests ?? {}) as TaskInputRequests;
        const open = Object.keys(requests).filter((key) => !answered.has(key));
        if (status === "input_required" && callOptions.onInput && open.length > 0) {
          const responses = await callOptions.onInput(Object.fromEntries(open.map((k) => [k, requests[k]!])));
          answered = new Set([...answered, ...Object.keys(responses)]);
          await request("tasks/update", { taskId, inputResponses: responses }, signal);
          continue;
        }
        await sleep(typeof task.pollIntervalMs === "number" ? task.pollIntervalMs : 1000, signal);
      }
    },
    async cancel() {
      await request("tasks/cancel", { taskId });
    },
  };
}

/** A result the server gave at once (a 2026-07-28 server may answer a task tool without a task). */
function finishedTask<T>(result: ToolCallResult<T>): ToolTask<T> {
  const at = new Date().toISOString();
  const info: TaskInfo = { taskId: "", status: "completed", createdAt: at, lastUpdatedAt: at, ttlMs: null };
  return {
    taskId: "",
    created: info,
    status: async () => info,
    result: async () => result,
    cancel: async () => {},
  };
}

/** A 2026-07-28 `Task` (`ttlMs`, `pollIntervalMs`) as a `TaskInfo`. */
function modernInfo(t: Record<string, unknown>): TaskInfo {
  return taskInfo(t, "ttlMs", "pollIntervalMs");
}

/**
 * The `_meta` envelope a 2026-07-28 request carries (protocol version, client info and
 * capabilities), as the SDK client builds it, with the tasks extension declared for this request
 * (a per-request opt-in, SEP-2575). The SDK has no public accessor for it.
 */
function modernEnvelope(client: TaskCallingClient): Record<string, unknown> {
  const build = (client as { _outboundMetaEnvelope?: () => Record<string, unknown> | undefined })
    ._outboundMetaEnvelope;
  const envelope = typeof build === "function" ? build.call(client) : undefined;
  if (!envelope) {
    throw new TaskError(
      "mcp-gen: cannot frame 2026-07-28 task requests: the SDK client exposes no request envelope",
    );
  }
  const key = CLIENT_CAPABILITIES_META_KEY;
  const capabilities = (envelope[key] ?? {}) as { extensions?: Record<string, unknown> };
  return {
    ...envelope,
    [key]: { ...capabilities, extensions: { ...capabilities.extensions, [TASKS_EXTENSION]: {} } },
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
