import {
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type Result,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { Questions } from "./input/channel.ts";
import type { ResultChannel } from "./input/result-channel.ts";
import { protocolError } from "./protocol.ts";
import { publishStatus, recordedQuestions, type SharedTasks, untilOver } from "./shared-tasks.ts";
import { isTerminal, type TaskRecord, type TaskStore } from "./task-store.ts";
import { detailedTask, legacyTask } from "./task-wire.ts";

/** A task executing in this process. */
export interface Running {
  controller: AbortController;
  /** Whom the task belongs to (its store's `owner`). */
  owner?: string | undefined;
  /** Settles once the task's outcome is stored. */
  done: Promise<void>;
  /** What a 2026-07-28 task waits for its client to answer (`tasks/update`). */
  questions: Questions;
  /** Tells the creating 2025 connection the task's new status (`notifications/tasks/status`). */
  notify(task: TaskRecord | undefined): void;
  /** Where a 2025 task's requests to the client go: `tasks/result` requests waiting for it. */
  results: ResultChannel;
}

/**
 * The `tasks/*` requests of both eras, on the store and the executions of this process:
 * 2025-11-25 `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`; 2026-07-28 `tasks/get`
 * (a `DetailedTask`), `tasks/update` (answers to the task's questions), `tasks/cancel`.
 */
export function taskRequests(state: {
  store: TaskStore;
  running: Map<string, Running>;
  /** Set when replicas share tasks: answers and cancels go through the store and its bus. */
  shared?: SharedTasks | undefined;
}) {
  const { store, running, shared } = state;

  /** The task of a `tasks/*` request: `-32602` when unknown. */
  const find = async (params: unknown, owner: string | undefined) => {
    const taskId = (params as { taskId?: unknown } | undefined)?.taskId;
    if (typeof taskId !== "string") {
      throw protocolError(ProtocolErrorCode.InvalidParams, "Invalid params: taskId must be a string");
    }
    const task = await store.get(taskId, owner);
    if (!task)
      throw protocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${JSON.stringify(taskId)}`);
    return task;
  };

  const cancel = async (task: TaskRecord) => {
    const cancelled = await store.cancel(task.taskId);
    const entry = running.get(task.taskId);
    if (entry) {
      running.delete(task.taskId);
      entry.controller.abort(new Error("The task was cancelled by the client (tasks/cancel)."));
      entry.notify(cancelled);
    } else if (shared) {
      // The replica running it hears it on the bus and aborts the run.
      await publishStatus(shared, cancelled);
    }
    return cancelled ?? task;
  };

  /** `tasks/result` waits for the task (its 2025 requests to the client travel on this stream). */
  const result = async (params: unknown, owner: string | undefined, ctx: ServerContext): Promise<Result> => {
    let task = await find(params, owner);
    if (!isTerminal(task.status)) {
      const entry = running.get(task.taskId);
      const detach = entry?.results.attach(ctx);
      try {
        await entry?.done;
        // Run by another replica (taken over): its status events say when it is over.
        if (!entry && shared) {
          await untilOver({ shared, taskId: task.taskId, owner, signal: ctx.mcpReq.signal });
        }
      } finally {
        detach?.();
      }
      task = (await store.get(task.taskId, owner)) ?? task;
    }
    const related = { [RELATED_TASK_META_KEY]: { taskId: task.taskId } };
    if (task.status === "completed" && task.result) {
      const value = task.result as { _meta?: object };
      return { ...value, _meta: { ...value._meta, ...related } } as Result;
    }
    if (task.status === "failed" && task.error)
      throw protocolError(task.error.code, task.error.message, task.error.data);
    throw protocolError(
      ProtocolErrorCode.InvalidParams,
      `Task ${task.taskId} was ${task.status}: it has no result`,
    );
  };

  const list = async (params: unknown, owner: string | undefined): Promise<Result> => {
    const cursor = (params as { cursor?: unknown } | undefined)?.cursor;
    if (cursor !== undefined && typeof cursor !== "string") {
      throw protocolError(ProtocolErrorCode.InvalidParams, "Invalid params: cursor must be a string");
    }
    try {
      const page = await store.list({ ...(cursor !== undefined ? { cursor } : {}), owner });
      return {
        tasks: page.tasks.map(legacyTask),
        ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}),
      } as Result;
    } catch (error) {
      if (error instanceof RangeError) throw protocolError(ProtocolErrorCode.InvalidParams, error.message);
      throw error;
    }
  };

  /** `tasks/update`: the answers go to the questions of the task's channel. */
  const update = async (task: TaskRecord, params: unknown, ctx: ServerContext): Promise<Result> => {
    // The SDK lifts `inputResponses` off the params of a 2026-07-28 request.
    const answers = (params as { inputResponses?: unknown }).inputResponses ?? ctx.mcpReq.inputResponses;
    if (answers === null || typeof answers !== "object" || Array.isArray(answers)) {
      throw protocolError(
        ProtocolErrorCode.InvalidParams,
        "Invalid params: inputResponses must be an object",
      );
    }
    if (shared) {
      // Kept in the store (each key once), then the replica running the task hears it on the bus.
      const { task: now, accepted } = await shared.tasks.answer(
        task.taskId,
        answers as Record<string, unknown>,
      );
      if (accepted.length > 0) await publishStatus(shared, now);
      return { resultType: "complete" } as Result;
    }
    const entry = running.get(task.taskId);
    entry?.questions.answer(answers as Record<string, unknown>);
    if (entry && entry.questions.size === 0 && task.status === "input_required") {
      await store.setStatus(task.taskId, "working");
    }
    return { resultType: "complete" } as Result;
  };

  return {
    async legacy(
      method: string,
      params: unknown,
      owner: string | undefined,
      ctx: ServerContext,
    ): Promise<Result> {
      switch (method) {
        case "tasks/get":
          return legacyTask(await find(params, owner)) as Result;
        case "tasks/result":
          return result(params, owner, ctx);
        case "tasks/list":
          return list(params, owner);
        default: {
          const task = await find(params, owner);
          if (isTerminal(task.status)) {
            throw protocolError(
              ProtocolErrorCode.InvalidParams,
              `Cannot cancel task ${task.taskId}: it is already ${task.status}`,
            );
          }
          return legacyTask(await cancel(task)) as Result;
        }
      }
    },

    async modern(method: string, params: unknown, ctx: ServerContext): Promise<Result> {
      const task = await find(params, undefined);
      switch (method) {
        case "tasks/get":
          return detailedTask(
            task,
            shared ? recordedQuestions(task) : running.get(task.taskId)?.questions.inputRequests(),
          ) as Result;
        case "tasks/cancel":
          if (!isTerminal(task.status)) await cancel(task);
          return { resultType: "complete" } as Result;
        default:
          return update(task, params, ctx);
      }
    },
  };
}
