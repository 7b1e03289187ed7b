import type { ProtocolEra } from "@modelcontextprotocol/client";
import { type CallToolResult, CLIENT_CAPABILITIES_META_KEY } from "@modelcontextprotocol/client";
import { TASKS_EXTENSION } from "../tasks-extension.ts";
import { ValidationError } from "../validation/validator.ts";
import { type ToolSpec, type TypedClientOptions, toToolCallResult } from "./call.ts";
import type { ToolCallResult } from "./result.ts";
import { type RawResponse, type TappableClient, tapTransport } from "./transport-tap.ts";

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

let tokens = 0;

/**
 * Creates the function a generated typed client runs tools as tasks with (`client.<tool>.task()`):
 * 2025-11-25 servers get `tools/call` with `task`, then `tasks/get`, `tasks/result` and
 * `tasks/cancel`; 2026-07-28 servers the tasks extension (`CreateTaskResult`, polling `tasks/get`,
 * `tasks/update`, `tasks/cancel`). The requests travel beside the SDK client on its transport,
 * whose wire codecs refuse task results.
 *
 * @example
 * const start = createTaskStarter(client);
 * const task = await start({ name: "render_report" }, { pages: 3 });
 * const r = await task.result();
 */
export function createTaskStarter(client: TaskCallingClient, options: TypedClientOptions = {}): TaskStarter {
  const validateArguments = options.validateArguments ?? true;
  const validateResults = options.validateResults ?? true;
  return async (spec, args, callOptions = {}) => {
    const input = (args ?? {}) as Record<string, unknown>;
    if (validateArguments && spec.input) {
      const checked = spec.input.check(input);
      if (!checked.ok) throw new ValidationError(checked.message, checked.issues);
    }
    const era = client.getProtocolEra?.() ?? "legacy";
    const tap = tapTransport(client);
    const settle = (raw: CallToolResult) => toToolCallResult(raw, spec, { validateResults, era });
    if (era === "legacy") {
      const token = `mcp-gen-task-${++tokens}`;
      const { onprogress } = callOptions;
      const stop = onprogress
        ? tap.onNotification((n) => {
            if (n.method !== "notifications/progress" || n.params?.progressToken !== token) return false;
            const { progress, total, message } = n.params as {
              progress: number;
              total?: number;
              message?: string;
            };
            onprogress({
              progress,
              ...(total !== undefined ? { total } : {}),
              ...(message !== undefined ? { message } : {}),
            });
            return true;
          })
        : () => {};
      const request = (method: string, params: Record<string, unknown>) =>
        tap.dispatch({ method, params }).then(resultOf);
      let created: Record<string, unknown>;
      try {
        created = await request("tools/call", {
          name: spec.name,
          arguments: input,
          task: callOptions.ttlMs !== undefined ? { ttl: callOptions.ttlMs } : {},
          ...(onprogress ? { _meta: { progressToken: token } } : {}),
        });
      } catch (error) {
        stop();
        throw error;
      }
      const info = legacyInfo(created.task);
      const { taskId } = info;
      return {
        taskId,
        created: info,
        status: async () => legacyInfo(await request("tasks/get", { taskId })),
        async result() {
          try {
            return settle((await request("tasks/result", { taskId })) as unknown as CallToolResult);
          } finally {
            stop();
          }
        },
        async cancel() {
          try {
            await request("tasks/cancel", { taskId });
          } catch (error) {
            // A 2025 server refuses to cancel a task that is over (-32602): it stays as it is.
            const now = legacyInfo(await request("tasks/get", { taskId }));
            if (!isOver(now.status)) throw error;
          }
        },
      };
    }
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
            const responses = await callOptions.onInput(
              Object.fromEntries(open.map((k) => [k, requests[k]!])),
            );
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

function resultOf(response: RawResponse): Record<string, unknown> {
  if (response.kind === "result") return response.result;
  throw new TaskError(response.error.message, response.error.code, response.error.data);
}

function isOver(status: TaskInfo["status"]): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

/** A 2025-11-25 `Task` (`ttl`, `pollInterval`) as a `TaskInfo`. */
function legacyInfo(value: unknown): TaskInfo {
  return taskInfo((value ?? {}) as Record<string, unknown>, "ttl", "pollInterval");
}

/** A 2026-07-28 `Task` (`ttlMs`, `pollIntervalMs`) as a `TaskInfo`. */
function modernInfo(t: Record<string, unknown>): TaskInfo {
  return taskInfo(t, "ttlMs", "pollIntervalMs");
}

/** A task of either era as a `TaskInfo`, reading its times under the era's names. */
function taskInfo(t: Record<string, unknown>, ttl: string, poll: string): TaskInfo {
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
