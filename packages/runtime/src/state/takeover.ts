import type { TaskFailure, TaskRecord } from "../server/task-store.ts";
import type { SharedTaskStore } from "./types.ts";

/** How a run ended, as `storeResult` takes it. */
export type RunOutcome = Parameters<SharedTaskStore["storeResult"]>[1];

/** The error of a task whose replica died while running a tool that is not safe to run again. */
export const OUTCOME_UNKNOWN: TaskFailure = {
  code: -32603,
  message:
    "Outcome unknown: the replica running this task stopped, and its tool is not declared safe to run again (readOnlyHint or idempotentHint)",
};

/** A run under a lease: its signal aborts when the lease is lost. */
export interface LeasedRun {
  /** Settles once the outcome is stored — or dropped (`false`): another replica took the task, or the engine failed. */
  readonly done: Promise<boolean>;
  /** The same moment, with the task as `finish` left it (`undefined` when nothing was stored). */
  readonly finished: Promise<TaskRecord | undefined>;
  /** Renews the lease now (an interval does it every `leaseMs / 3`); `false` once it is lost. */
  renew(): Promise<boolean>;
}

/**
 * Runs `work` for a task this replica holds the lease of: renews the lease while it runs, aborts
 * `work`'s signal when the lease is lost (another replica took the task), and stores the outcome
 * fenced by the lease (`finish`), so a task ends once.
 */
export function runLeased(options: {
  tasks: SharedTaskStore;
  taskId: string;
  holder: string;
  leaseMs: number;
  work: (signal: AbortSignal) => Promise<RunOutcome>;
}): LeasedRun {
  const { tasks, taskId, holder, leaseMs } = options;
  const controller = new AbortController();
  const renew = async () => {
    if (controller.signal.aborted) return false;
    const lease = await tasks.renewLease(taskId, { holder, ttlMs: leaseMs }).catch(() => undefined);
    // Unreachable engine or lease taken: stop. An outcome could no longer be stored safely anyway.
    if (!lease) controller.abort(new Error(`The lease of task ${taskId} was lost.`));
    return lease !== undefined;
  };
  const timer = setInterval(() => void renew(), Math.max(1, Math.floor(leaseMs / 3)));
  timer.unref();
  const finished = (async (): Promise<TaskRecord | undefined> => {
    let outcome: RunOutcome;
    try {
      outcome = await options.work(controller.signal);
    } catch (error) {
      outcome = {
        status: "failed",
        error: { code: -32603, message: error instanceof Error ? error.message : String(error) },
      };
    } finally {
      clearInterval(timer);
    }
    if (controller.signal.aborted) return undefined;
    const ended = await tasks.finish(taskId, holder, outcome);
    return ended.stored ? ended.task : undefined;
  })();
  // An outcome the engine could not take is not stored (`finished` rejects with why).
  const done = finished.then(
    (task) => task !== undefined,
    () => false,
  );
  return { done, finished, renew };
}

/** What one sweep did. */
export interface SweepReport {
  /** Tasks taken over and run again (their tool is safe to re-run); `done` as in `LeasedRun`. */
  rerun: { taskId: string; done: Promise<boolean> }[];
  /** Tasks taken over and ended as failed with `OUTCOME_UNKNOWN`. */
  failed: string[];
}

/**
 * Takes over the tasks of dead replicas: each `sweep()` (every few seconds, on every replica)
 * lists the running tasks whose lease lapsed, takes each lease it can (one replica wins), and
 * runs the task again when its `run` is re-runnable, else ends it as failed with
 * `OUTCOME_UNKNOWN` — a tool that is not safe to run twice never runs a second time.
 */
export function takeover(options: {
  tasks: SharedTaskStore;
  holder: string;
  leaseMs: number;
  /** Runs a re-runnable task's tool again with `task.run.arguments`. */
  rerun: (task: TaskRecord, signal: AbortSignal) => Promise<RunOutcome>;
}): { sweep(): Promise<SweepReport> } {
  const { tasks, holder, leaseMs } = options;
  return {
    async sweep() {
      const report: SweepReport = { rerun: [], failed: [] };
      for (const task of await tasks.lapsed()) {
        if (!(await tasks.acquireLease(task.taskId, { holder, ttlMs: leaseMs }))) continue;
        if (task.run?.rerunnable) {
          const run = runLeased({
            tasks,
            taskId: task.taskId,
            holder,
            leaseMs,
            work: (signal) => options.rerun(task, signal),
          });
          report.rerun.push({ taskId: task.taskId, done: run.done });
        } else if (
          (await tasks.finish(task.taskId, holder, { status: "failed", error: OUTCOME_UNKNOWN })).stored
        ) {
          report.failed.push(task.taskId);
        }
      }
      return report;
    },
  };
}
