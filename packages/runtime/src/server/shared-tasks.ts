import type { EventBus, SharedTaskStore, StateEvent } from "../state/types.ts";
import type { InputRequest } from "./input/channel.ts";
import type { ManifestTool } from "./manifest.ts";
import type { Running } from "./task-requests.ts";
import { isTerminal, type TaskRecord, type TaskRun } from "./task-store.ts";

/**
 * Tasks shared by the replicas of a server (`serve({ state })`): records, questions, answers and
 * the cancel flag in the shared store, a lease held by the replica running each task, and the
 * bus telling every replica when a task changes.
 */
export interface SharedTasks {
  tasks: SharedTaskStore;
  events: EventBus;
  /** This replica's id: the holder of the leases of the tasks it runs. */
  holder: string;
  /** How long a lease holds without renewal, in ms (renewed every third of it). Default 15 000. */
  leaseMs?: number;
  /** Aborted when the server stops: the takeover sweeps stop with it. */
  signal?: AbortSignal;
  /** Where an engine's failure outside a request goes (a publish, a bus read). */
  report(error: unknown): void;
}

/** The default lease of a running task: another replica takes it 15 s after its holder died. */
export const DEFAULT_LEASE_MS = 15_000;

/** What a task runs, for a replica that takes it over: re-runnable when read-only or idempotent. */
export function taskRun(tool: ManifestTool, args: unknown): TaskRun {
  const hints = tool.definition.annotations ?? {};
  return {
    tool: tool.definition.name,
    arguments: (args ?? {}) as Record<string, unknown>,
    rerunnable: hints.readOnlyHint === true || hints.idempotentHint === true,
  };
}

/** How a task's run ended, as the store takes it. */
export type StoredOutcome = Parameters<SharedTaskStore["storeResult"]>[1];

/** Publishes a task's new status to every replica; an engine that cannot take it is reported. */
export function publishStatus(shared: SharedTasks, task: TaskRecord | undefined): Promise<void> {
  if (!task) return Promise.resolve();
  const event: StateEvent = { type: "task-status", taskId: task.taskId, status: task.status };
  return shared.events.publish(event).catch((error) => shared.report(error));
}

/**
 * Follows the bus for the tasks this replica runs: answers given on any replica reach the
 * questions waiting here, a cancel on any replica aborts the run here. Returns the unsubscribe.
 */
export function followTasks(shared: SharedTasks, running: Map<string, Running>): () => void {
  const stop = shared.events.subscribe((event) => {
    // A run that completed or failed has nothing to hear (it may be this replica's own, whose
    // event the store appended with the outcome); answers and cancels come as other statuses.
    if (event.type !== "task-status" || event.status === "completed" || event.status === "failed") return;
    const entry = running.get(event.taskId);
    if (!entry) return;
    void shared.tasks
      .get(event.taskId, entry.owner)
      .then((task) => {
        if (!task || running.get(event.taskId) !== entry) return;
        if (task.cancelRequested || task.status === "cancelled") {
          running.delete(event.taskId);
          entry.controller.abort(new Error("The task was cancelled by the client (tasks/cancel)."));
          entry.notify(task);
          return;
        }
        // Answers to questions no longer outstanding (a key asked again waits for its new answer).
        const outstanding = task.questions ?? {};
        const answered = Object.entries(task.answers ?? {}).filter(
          ([key]) => !Object.hasOwn(outstanding, key),
        );
        if (answered.length > 0) entry.questions.answer(Object.fromEntries(answered));
      })
      .catch((error) => shared.report(error));
  });
  shared.signal?.addEventListener("abort", stop, { once: true });
  return stop;
}

/** The open questions of a task as its record keeps them (`tasks/get` on any replica). */
export function recordedQuestions(task: TaskRecord): Record<string, InputRequest> | undefined {
  return task.questions as Record<string, InputRequest> | undefined;
}

/**
 * Waits until a task is over, woken by its status events (a 2025 `tasks/result` on a replica
 * that does not run the task). Resolves with the task as it is then.
 */
export function untilOver(options: {
  shared: SharedTasks;
  taskId: string;
  owner: string | undefined;
  signal: AbortSignal;
}): Promise<TaskRecord | undefined> {
  const { shared, taskId, owner, signal } = options;
  return new Promise((resolve, reject) => {
    let stop = () => {};
    const check = () =>
      shared.tasks.get(taskId, owner).then((task) => {
        if (!task || isTerminal(task.status)) {
          stop();
          resolve(task);
        }
      }, fail);
    const fail = (error: unknown) => {
      stop();
      reject(error);
    };
    const unsubscribe = shared.events.subscribe((event) => {
      if (event.type === "task-status" && event.taskId === taskId) void check();
    });
    const aborted = () => fail(signal.reason);
    stop = () => {
      unsubscribe();
      signal.removeEventListener("abort", aborted);
    };
    signal.addEventListener("abort", aborted, { once: true });
    void check();
  });
}
