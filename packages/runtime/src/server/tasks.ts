import {
  MissingRequiredClientCapabilityError,
  type ProtocolEra,
  ProtocolError,
  type Result,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { TASKS_EXTENSION } from "../tasks-extension.ts";
import type { CallEnvironment, Target } from "./call-tool.ts";
import { Questions } from "./input/channel.ts";
import { ResultChannel } from "./input/result-channel.ts";
import { legacyTaskChannel, modernTaskChannel } from "./input/task-channels.ts";
import { Invocation } from "./invocation.ts";
import { type ManifestTool, taskSupportOf } from "./manifest.ts";
import { logToStderr } from "./options.ts";
import type { ToTask } from "./parked.ts";
import {
  DEFAULT_LEASE_MS,
  followTasks,
  publishStatus,
  type SharedTasks,
  type StoredOutcome,
  taskRun,
} from "./shared-tasks.ts";
import type { TakeoverSource } from "./taken-over.ts";
import { startsAsTask } from "./task-admission.ts";
import { type Running, taskRequests } from "./task-requests.ts";
import { memoryTaskStore, type TaskRecord, type TaskStore } from "./task-store.ts";
import { clientHasTasks, created, errorOf, legacyTask } from "./task-wire.ts";

/** How a tool runs as a task (`@task`): `"optional"` when the client asks, `"required"` always. */
export type TaskSupport = "optional" | "required";

/** How a server runs tools as MCP tasks (`McpGenServerOptions.tasks`). */
export interface ServerTaskOptions {
  /** Where tasks are kept. Default: `memoryTaskStore()`. */
  store?: TaskStore;
  /** How long a task is kept after its creation when the client asks for no `ttl`, in ms. Default 1 hour. */
  ttlMs?: number;
  /** The longest `ttl` a 2025 client may ask for, in ms. Default 24 hours. */
  maxTtlMs?: number;
  /** How often clients are told to poll, in ms. Default 1000. */
  pollIntervalMs?: number;
  /**
   * Tasks shared by replicas (`serve({ state })` sets it): kept in `shared.tasks` (instead of
   * `store`) under a lease, questions, answers and cancels through the store and its bus.
   */
  shared?: SharedTasks;
}

/** What a task call needs from the request that creates it. */
export interface TaskCall {
  tool: ManifestTool;
  /** The tool as an invocation target (built once per catalog). */
  target: Target<Result>;
  /** The arguments as checked: a task is created for invalid ones too, completed with the feedback. */
  checked: { ok: true; args: unknown } | { ok: false; result: Result };
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
  /** The tools this replica serves now: what it runs again when it takes over a task of a dead replica. */
  adopt(source: TakeoverSource): void;
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

/**
 * Builds the task service of a server. Executions run in this process (an `AbortController`
 * each, aborted by `tasks/cancel`); their records and outcomes go to the store. A task reaches
 * its client through its era's task channel (`input/task-channels.ts`).
 */
export function createTasks(options: ServerTaskOptions = {}): Tasks {
  const { shared } = options;
  const store = shared?.tasks ?? options.store ?? memoryTaskStore();
  const defaultTtl = options.ttlMs ?? 60 * 60_000;
  const maxTtl = options.maxTtlMs ?? 24 * 60 * 60_000;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const running = new Map<string, Running>();
  let source: TakeoverSource | undefined;
  if (shared) followTasks(shared, running);
  // Leases and takeover load only with shared state (a server without it never loads them).
  const leased = shared ? import("./task-takeover.ts") : undefined;

  /** Creates the record — with what it runs and this replica's lease when shared, in one step — before any answer. */
  const open = (call: TaskCall, ttlMs: number) => {
    const task = { ttlMs, pollIntervalMs, owner: call.owner };
    if (!shared || !call.checked.ok) return store.create(task);
    return shared.tasks.create({
      ...task,
      run: taskRun(call.tool, call.checked.args),
      lease: { holder: shared.holder, ttlMs: shared.leaseMs ?? DEFAULT_LEASE_MS },
    });
  };

  const start = async (call: TaskCall): Promise<Result> => {
    const { era, server, checked } = call;
    const requested = (call.params.task as { ttl?: unknown } | undefined)?.ttl;
    const ttlMs =
      era === "legacy" && typeof requested === "number" && Number.isInteger(requested) && requested >= 0
        ? Math.min(requested, maxTtl)
        : defaultTtl;
    const record = await open(call, ttlMs);
    const { taskId } = record;
    const notify = (task: TaskRecord | undefined) => {
      if (shared) void publishStatus(shared, task);
      if (!task || era !== "legacy") return;
      server
        .notification({ method: "notifications/tasks/status", params: legacyTask(task) as never })
        .catch(() => {});
    };
    if (!checked.ok) {
      notify(await store.storeResult(taskId, { status: "completed", result: { ...checked.result } }));
      return created(record, era);
    }
    const controller = new AbortController();
    const results = new ResultChannel();
    const entry: Running = {
      controller,
      owner: call.owner,
      done: Promise.resolve(),
      questions: new Questions(),
      notify,
      results,
    };
    const link = { taskId, store, shared, label: call.target.label, signal: controller.signal };
    const progressToken = call.ctx.mcpReq._meta?.progressToken;
    const taskEnv: CallEnvironment = {
      ...call.env,
      requestSignal: controller.signal,
      channel: () =>
        era === "legacy"
          ? legacyTaskChannel({ ...link, server, results, notify, progressToken })
          : modernTaskChannel({ ...link, questions: entry.questions, created: call.ctx }),
    };
    const invocation = new Invocation(call.target, checked.args, taskEnv);
    entry.done = finish(taskId, entry, invocation);
    running.set(taskId, entry);
    return created(record, era);
  };

  /** How an execution ended, as the store keeps it. */
  const outcomeOf = async (invocation: Invocation<unknown>): Promise<StoredOutcome> => {
    const outcome = await invocation.outcome;
    try {
      // A JSON-RPC error the tool threw fails the task (a tool error completes it with isError).
      if (!outcome.ok && outcome.error instanceof ProtocolError) throw outcome.error;
      return { status: "completed", result: invocation.settle(outcome) as Record<string, unknown> };
    } catch (error) {
      return { status: "failed", error: errorOf(error) };
    }
  };

  /** Stores the task's outcome once its execution ends (fenced by its lease when shared). */
  const finish = (taskId: string, entry: Running, invocation: Invocation<unknown>) =>
    (shared
      ? leased!.then((m) => m.runShared({ shared, taskId, entry, outcome: () => outcomeOf(invocation) }))
      : outcomeOf(invocation).then((outcome) => store.storeResult(taskId, outcome))
    ).then(
      (stored) => {
        running.delete(taskId);
        entry.questions.rejectAll(new Error("The task is over."));
        if (stored && stored.status !== "cancelled") entry.notify(stored);
      },
      (error: unknown) => {
        // The store could not take the outcome (an engine unreachable, a server closing): the
        // task stays as stored (a lapsed lease lets another replica take it), never a crash.
        running.delete(taskId);
        entry.questions.rejectAll(new Error("The task is over."));
        const failure = error instanceof Error ? error : new Error(String(error));
        if (shared) shared.report(failure);
        else logToStderr({ kind: "protocol", error: failure });
      },
    );

  const requests = taskRequests({ store, running, shared });
  if (shared) {
    void leased!.then((m) => m.sweepTasks({ shared, running, source: () => source, outcomeOf }));
  }

  return {
    adopt(next) {
      source = next;
    },

    call(call) {
      return startsAsTask(call) ? start(call) : undefined;
    },

    deferred(call) {
      if (call.era === "legacy" || !call.tool.taskDeferred || !taskSupportOf(call.tool)) return undefined;
      if (!clientHasTasks(call.ctx)) return undefined;
      return async (invocation) => {
        const record = await open(call, defaultTtl);
        const { taskId } = record;
        const questions = new Questions();
        const entry: Running = {
          controller: invocation.controller,
          owner: call.owner,
          done: Promise.resolve(),
          questions,
          notify: (task) => {
            if (shared) void publishStatus(shared, task);
          },
          results: new ResultChannel(),
        };
        running.set(taskId, entry);
        entry.done = finish(taskId, entry, invocation);
        const link = { taskId, store, shared, label: call.target.label, signal: invocation.signal };
        return {
          result: created(record, call.era),
          channel: modernTaskChannel({ ...link, questions, created: invocation.request }),
        };
      };
    },

    request(method, params, { era, ctx, owner }) {
      if (era === "legacy") return requests.legacy(method, params, owner, ctx);
      if (!clientHasTasks(ctx)) {
        throw new MissingRequiredClientCapabilityError({
          requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
        });
      }
      return requests.modern(method, params, ctx);
    },
  };
}
