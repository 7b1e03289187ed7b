import {
  CLIENT_CAPABILITIES_META_KEY,
  type ClientCapabilities,
  MissingRequiredClientCapabilityError,
  type ProtocolEra,
  ProtocolError,
  ProtocolErrorCode,
  RELATED_TASK_META_KEY,
  type Result,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { ToolContext } from "../context.ts";
import { TASKS_EXTENSION } from "../tasks-extension.ts";
import { ToolError } from "../tool-error.ts";
import { type CallEnvironment, checkArguments, Invocation, toolTarget } from "./call-tool.ts";
import type { ManifestTool } from "./manifest.ts";
import { answerProblem, type InputRequest, PREFIX, type ToTask } from "./parked.ts";
import { protocolError } from "./protocol.ts";
import { ResultChannel } from "./task-channel.ts";
import { isTerminal, memoryTaskStore, type TaskRecord, type TaskStore } from "./task-store.ts";
import { clientHasTasks, created, detailedTask, errorOf, legacyTask } from "./task-wire.ts";

/** How a tool runs as a task (`@task`): `"optional"` when the client asks, `"required"` always. */
export type TaskSupport = "optional" | "required";

/** How a server runs tools as MCP tasks (`ServerOptions.tasks`). */
export interface TaskOptions {
  /** Where tasks are kept. Default: `memoryTaskStore()`. */
  store?: TaskStore;
  /** How long a task is kept after its creation when the client asks for no `ttl`, in ms. Default 1 hour. */
  ttlMs?: number;
  /** The longest `ttl` a 2025 client may ask for, in ms. Default 24 hours. */
  maxTtlMs?: number;
  /** How often clients are told to poll, in ms. Default 1000. */
  pollIntervalMs?: number;
}

/** The task support a tool declares (`execution.taskSupport` of its definition). */
export function taskSupportOf(tool: ManifestTool): TaskSupport | undefined {
  const support = (tool.definition.execution as { taskSupport?: unknown } | undefined)?.taskSupport;
  return support === "optional" || support === "required" ? support : undefined;
}

/** What a task call needs from the request that creates it. */
export interface TaskCall {
  tool: ManifestTool;
  args: unknown;
  env: CallEnvironment;
  /** The `tools/call` params (a 2025 client's `task: { ttl }`). */
  params: Record<string, unknown>;
  ctx: ServerContext;
  era: ProtocolEra;
  /** The server that answers the request: 2025 status and progress notifications go there. */
  server: Server;
  /** Whom the task belongs to (a 2025 session); `undefined` for everybody with its id. */
  owner: string | undefined;
}

/** Serves MCP tasks for one server factory: task creation from `tools/call`, and `tasks/*`. */
export interface Tasks {
  /**
   * Runs the call as a task when it should be one (a 2025 client sent `task`; a 2026-07-28
   * client declared the extension and the tool supports tasks): its `CreateTaskResult`. Else
   * `undefined` (the call runs as usual), or the spec's error for a `required` tool.
   */
  call(call: TaskCall): Promise<Result> | undefined;
  /**
   * How a call of a `@task deferred` tool becomes a task at `ctx.becomeTask()` (2026-07-28, a
   * client with the tasks extension); `undefined` when it runs as a plain call to its end.
   */
  deferred(call: TaskCall): ToTask | undefined;
  /** Answers `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel` (2025) or `tasks/get`, `tasks/update`, `tasks/cancel` (2026-07-28). */
  request(
    method: string,
    params: unknown,
    context: { era: ProtocolEra; ctx: ServerContext; owner?: string },
  ): Promise<Result>;
}

interface Question {
  request: InputRequest;
  resolve(answer: unknown): void;
  reject(error: Error): void;
}

/** A task executing in this process. */
interface Running {
  controller: AbortController;
  /** Settles once the task's outcome is stored. */
  done: Promise<void>;
  /** What a 2026-07-28 task waits for its client to answer (`tasks/update`). */
  questions: Map<string, Question>;
  asked: number;
  /** Tells the creating 2025 connection the task's new status (`notifications/tasks/status`). */
  notify(task: TaskRecord | undefined): void;
  /** Where a 2025 task's requests to the client go: `tasks/result` requests waiting for it. */
  channel: ResultChannel;
}

/**
 * Builds the task service of a server. Executions run in this process (an `AbortController`
 * each, aborted by `tasks/cancel`); their records and outcomes go to the store.
 */
export function createTasks(options: TaskOptions = {}): Tasks {
  const store = options.store ?? memoryTaskStore();
  const defaultTtl = options.ttlMs ?? 60 * 60_000;
  const maxTtl = options.maxTtlMs ?? 24 * 60 * 60_000;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const running = new Map<string, Running>();

  const start = async (call: TaskCall): Promise<Result> => {
    const { tool, env, era, server } = call;
    const requested = (call.params.task as { ttl?: unknown } | undefined)?.ttl;
    const ttlMs =
      era === "legacy" && typeof requested === "number" && Number.isInteger(requested) && requested >= 0
        ? Math.min(requested, maxTtl)
        : defaultTtl;
    const record = await store.create({ ttlMs, pollIntervalMs, owner: call.owner });
    const { taskId } = record;
    const notify = (task: TaskRecord | undefined) => {
      if (!task || era !== "legacy") return;
      server
        .notification({ method: "notifications/tasks/status", params: legacyTask(task) as never })
        .catch(() => {});
    };
    const checked = checkArguments(tool, call.args, env);
    if (!checked.ok) {
      notify(await store.storeResult(taskId, { status: "completed", result: { ...checked.result } }));
      return created(record, era);
    }
    const controller = new AbortController();
    const entry: Running = {
      controller,
      done: Promise.resolve(),
      questions: new Map(),
      asked: 0,
      notify,
      channel: new ResultChannel(),
    };
    /**
     * A 2025 task asks its client on the stream of a waiting `tasks/result` (status
     * `input_required` meanwhile), the request marked as the task's (`related-task`).
     */
    const viaResult = async <T>(
      capability: "elicitation" | "sampling" | "roots",
      signal: AbortSignal,
      send: (
        ctx: ServerContext,
        options: { relatedRequestId: string | number; signal: AbortSignal },
      ) => Promise<T>,
    ): Promise<T> => {
      if (!server.getClientCapabilities()?.[capability]) {
        throw new ToolError(
          `Tool "${tool.definition.name}" needs ${capability}, which the client does not support.`,
        );
      }
      notify(await store.setStatus(taskId, "input_required"));
      const channel = await entry.channel.next(signal);
      try {
        return await send(channel, { relatedRequestId: channel.mcpReq.id, signal });
      } finally {
        if (!signal.aborted) notify(await store.setStatus(taskId, "working"));
      }
    };
    const related = { [RELATED_TASK_META_KEY]: { taskId } };
    const progressToken = call.ctx.mcpReq._meta?.progressToken;
    const capabilities = () =>
      (call.ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
        | ClientCapabilities
        | undefined;
    const ask = (request: InputRequest, capability: "elicitation" | "sampling" | "roots", key?: string) => {
      if (!capabilities()?.[capability]) {
        return Promise.reject(
          new ToolError(
            `Tool "${tool.definition.name}" needs ${capability}, which the client does not support.`,
          ),
        );
      }
      return askModern(entry, taskId, request, key);
    };
    const taskEnv: CallEnvironment = {
      ...env,
      requestSignal: controller.signal,
      context: (signal, link): ToolContext => {
        const base = env.context(signal, link);
        const progress: ToolContext["progress"] = async (value, total, message) => {
          if (signal.aborted) return;
          if (message !== undefined) await store.setStatus(taskId, "working", message);
          // The progress token of the creating request stays valid for the task's life (2025-11-25).
          if (era !== "legacy" || progressToken === undefined) return;
          await server
            .notification({
              method: "notifications/progress",
              params: {
                progressToken,
                progress: value,
                ...(total !== undefined ? { total } : {}),
                ...(message !== undefined ? { message } : {}),
              },
            })
            .catch(() => {});
        };
        if (era === "legacy") {
          return {
            ...base,
            progress,
            elicit: (request) =>
              viaResult("elicitation", signal, (ctx, o) =>
                ctx.mcpReq.elicitInput({ ...request, mode: "form", _meta: related }, o),
              ),
            sample: (request) =>
              viaResult("sampling", signal, (ctx, o) =>
                ctx.mcpReq.requestSampling({ ...request, _meta: related }, o),
              ) as never,
            roots: () =>
              viaResult(
                "roots",
                signal,
                async (_ctx, o) => (await server.listRoots({ _meta: related }, o)).roots,
              ),
          };
        }
        return {
          ...base,
          progress,
          elicit: (request, opts) =>
            ask(
              { method: "elicitation/create", params: { ...request, mode: "form" } },
              "elicitation",
              opts?.key,
            ) as never,
          sample: (request, opts) =>
            ask({ method: "sampling/createMessage", params: { ...request } }, "sampling", opts?.key) as never,
          roots: async (opts) =>
            ((await ask({ method: "roots/list", params: {} }, "roots", opts?.key)) as { roots: never[] })
              .roots,
        };
      },
    };
    const invocation = new Invocation(toolTarget(tool), checked.args, taskEnv);
    entry.done = finish(taskId, entry, invocation as Invocation<unknown>);
    running.set(taskId, entry);
    return created(record, era);
  };

  /** A 2026-07-28 task asks its client through its status (`input_required`) and `tasks/update`. */
  const askModern = (entry: Running, taskId: string, request: InputRequest, key?: string) => {
    const chosen = key ?? `${PREFIX[request.method]}-${++entry.asked}`;
    return new Promise<unknown>((resolve, reject) => {
      entry.questions.set(chosen, { request, resolve, reject });
      void store.setStatus(taskId, "input_required");
    });
  };

  /** Stores the task's outcome once its execution ends. */
  const finish = (taskId: string, entry: Running, invocation: Invocation<unknown>) =>
    invocation.outcome.then(async (outcome) => {
      let stored: TaskRecord | undefined;
      try {
        // A JSON-RPC error the tool threw fails the task (a tool error completes it with isError).
        if (!outcome.ok && outcome.error instanceof ProtocolError) throw outcome.error;
        const result = invocation.settle(outcome) as unknown as Record<string, unknown>;
        stored = await store.storeResult(taskId, { status: "completed", result });
      } catch (error) {
        stored = await store.storeResult(taskId, { status: "failed", error: errorOf(error) });
      }
      running.delete(taskId);
      for (const question of entry.questions.values()) question.reject(new Error("The task is over."));
      if (stored && stored.status !== "cancelled") entry.notify(stored);
    });

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
    }
    return cancelled ?? task;
  };

  const legacyRequest = async (
    method: string,
    params: unknown,
    owner: string | undefined,
    ctx: ServerContext,
  ): Promise<Result> => {
    switch (method) {
      case "tasks/get":
        return legacyTask(await find(params, owner)) as Result;
      case "tasks/result": {
        let task = await find(params, owner);
        if (!isTerminal(task.status)) {
          const entry = running.get(task.taskId);
          const detach = entry?.channel.attach(ctx);
          try {
            await entry?.done;
          } finally {
            detach?.();
          }
          task = (await store.get(task.taskId, owner)) ?? task;
        }
        const related = { [RELATED_TASK_META_KEY]: { taskId: task.taskId } };
        if (task.status === "completed" && task.result) {
          const result = task.result as { _meta?: object };
          return { ...result, _meta: { ...result._meta, ...related } } as Result;
        }
        if (task.status === "failed" && task.error) {
          throw protocolError(task.error.code, task.error.message, task.error.data);
        }
        throw protocolError(
          ProtocolErrorCode.InvalidParams,
          `Task ${task.taskId} was ${task.status}: it has no result`,
        );
      }
      case "tasks/list": {
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
          if (error instanceof RangeError)
            throw protocolError(ProtocolErrorCode.InvalidParams, error.message);
          throw error;
        }
      }
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
  };

  const modernRequest = async (method: string, params: unknown, ctx: ServerContext): Promise<Result> => {
    const task = await find(params, undefined);
    switch (method) {
      case "tasks/get":
        return detailedTask(task, running.get(task.taskId)?.questions) as Result;
      case "tasks/cancel":
        if (!isTerminal(task.status)) await cancel(task);
        return { resultType: "complete" } as Result;
      default: {
        // The SDK lifts `inputResponses` off the params of a 2026-07-28 request.
        const answers = (params as { inputResponses?: unknown }).inputResponses ?? ctx.mcpReq.inputResponses;
        if (answers === null || typeof answers !== "object" || Array.isArray(answers)) {
          throw protocolError(
            ProtocolErrorCode.InvalidParams,
            "Invalid params: inputResponses must be an object",
          );
        }
        const entry = running.get(task.taskId);
        for (const [key, answer] of Object.entries(answers)) {
          const question = entry?.questions.get(key);
          if (!question) continue;
          entry!.questions.delete(key);
          const problem = answerProblem(question.request, answer);
          if (problem)
            question.reject(new ToolError(`The client's answer to "${key}" is invalid: ${problem}`));
          else question.resolve(answer);
        }
        if (entry && entry.questions.size === 0 && task.status === "input_required") {
          await store.setStatus(task.taskId, "working");
        }
        return { resultType: "complete" } as Result;
      }
    }
  };

  return {
    call(call) {
      const support = taskSupportOf(call.tool);
      if (call.era === "legacy") {
        const asked = call.params.task !== undefined;
        if (asked && !support) {
          throw protocolError(
            ProtocolErrorCode.MethodNotFound,
            `Tool "${call.tool.definition.name}" does not run as a task (its execution.taskSupport is "forbidden")`,
          );
        }
        if (!asked && support === "required") {
          throw protocolError(
            ProtocolErrorCode.MethodNotFound,
            `Tool "${call.tool.definition.name}" runs only as a task: call it with a task parameter (execution.taskSupport is "required")`,
          );
        }
        return asked ? start(call) : undefined;
      }
      if (!support) return undefined;
      // A deferred tool starts as a plain call: `ctx.becomeTask()` makes it a task (`deferred`).
      if (clientHasTasks(call.ctx)) return call.tool.taskDeferred ? undefined : start(call);
      if (support === "required") {
        throw new MissingRequiredClientCapabilityError(
          { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
          `Tool "${call.tool.definition.name}" runs only as a task: the client must support the ${TASKS_EXTENSION} extension`,
        );
      }
      return undefined;
    },

    deferred(call) {
      if (call.era === "legacy" || !call.tool.taskDeferred || !taskSupportOf(call.tool)) return undefined;
      if (!clientHasTasks(call.ctx)) return undefined;
      return async (invocation) => {
        const record = await store.create({ ttlMs: defaultTtl, pollIntervalMs, owner: call.owner });
        const entry: Running = {
          controller: invocation.controller,
          done: Promise.resolve(),
          questions: new Map(),
          asked: 0,
          notify: () => {},
          channel: new ResultChannel(),
        };
        running.set(record.taskId, entry);
        entry.done = finish(record.taskId, entry, invocation);
        return {
          result: created(record, call.era),
          ask: (request, key) => askModern(entry, record.taskId, request, key),
        };
      };
    },

    request(method, params, { era, ctx, owner }) {
      if (era === "legacy") return legacyRequest(method, params, owner, ctx);
      if (!clientHasTasks(ctx)) {
        throw new MissingRequiredClientCapabilityError({
          requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
        });
      }
      return modernRequest(method, params, ctx);
    },
  };
}
