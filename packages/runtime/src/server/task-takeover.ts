import { type RunOutcome, runLeased, takeover } from "../state/takeover.ts";
import { Questions } from "./input/channel.ts";
import { ResultChannel } from "./input/result-channel.ts";
import { modernTaskChannel } from "./input/task-channels.ts";
import { Invocation } from "./invocation.ts";
import { DEFAULT_LEASE_MS, publishStatus, type SharedTasks, type StoredOutcome } from "./shared-tasks.ts";
import { noStreamChannel, type TakeoverSource, takenOverEnvironment } from "./taken-over.ts";
import type { Running } from "./task-requests.ts";
import type { TaskRecord } from "./task-store.ts";

/**
 * Runs a task this replica leased: the lease is renewed while it runs, the run is aborted when
 * the lease is lost, and its outcome is stored only while the lease holds (`runLeased`).
 * Resolves with the task as stored, `undefined` when another replica ended it.
 */
export async function runShared(options: {
  shared: SharedTasks;
  taskId: string;
  entry: Running;
  outcome: () => Promise<StoredOutcome>;
}): Promise<TaskRecord | undefined> {
  const { shared, taskId, entry } = options;
  const run = runLeased({
    tasks: shared.tasks,
    taskId,
    holder: shared.holder,
    leaseMs: shared.leaseMs ?? DEFAULT_LEASE_MS,
    work: (signal) => {
      const lost = () => entry.controller.abort(signal.reason);
      if (signal.aborted) lost();
      else signal.addEventListener("abort", lost, { once: true });
      return options.outcome();
    },
  });
  return run.finished;
}

/**
 * Takes over the tasks of dead replicas, every third of a lease (`takeover().sweep()`): a tool
 * declared re-runnable (`@readOnly`, `@idempotent`) runs again here with the task's arguments;
 * any other task ends failed with "outcome unknown". Stops when `shared.signal` aborts.
 */
export function sweepTasks(options: {
  shared: SharedTasks;
  running: Map<string, Running>;
  /** The tools this replica serves now; `undefined` until the server's catalog is loaded. */
  source(): TakeoverSource | undefined;
  /** How an execution ended, as the store keeps it (the same as for a task started here). */
  outcomeOf(invocation: Invocation<unknown>): Promise<RunOutcome>;
}): void {
  const { shared, running } = options;
  const leaseMs = shared.leaseMs ?? DEFAULT_LEASE_MS;
  /** The owners of the tasks re-run here, to read them back once they end. */
  const owners = new Map<string, string | undefined>();
  const announce = async (taskId: string) => {
    const owner = owners.get(taskId);
    owners.delete(taskId);
    await publishStatus(shared, await shared.tasks.get(taskId, owner));
  };
  const rerun = async (task: TaskRecord, signal: AbortSignal): Promise<RunOutcome> => {
    const source = options.source();
    const target = task.run && source?.targets.get(task.run.tool);
    if (!source || !target || !task.run) {
      const tool = JSON.stringify(task.run?.tool);
      return {
        status: "failed",
        error: { code: -32603, message: `Tool ${tool} is not served by this replica` },
      };
    }
    owners.set(task.taskId, task.owner);
    const controller = new AbortController();
    const stop = () => controller.abort(signal.reason);
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
    // The answers its client gave the dead replica's run answer the same questions again.
    const questions = new Questions(task.answers);
    const entry: Running = {
      controller,
      owner: task.owner,
      done: Promise.resolve(),
      questions,
      notify: (now) => void publishStatus(shared, now),
      results: new ResultChannel(),
    };
    running.set(task.taskId, entry);
    // A task without an owner is a 2026-07-28 one (a 2025 task belongs to its session).
    const era = task.owner === undefined ? "modern" : "legacy";
    const channel =
      era === "modern"
        ? modernTaskChannel({
            taskId: task.taskId,
            store: shared.tasks,
            shared,
            label: target.label,
            questions,
            created: undefined,
            signal: controller.signal,
          })
        : noStreamChannel(target.label);
    const env = takenOverEnvironment({
      source,
      taskId: task.taskId,
      era,
      owner: task.owner,
      signal: controller.signal,
      channel,
    });
    try {
      return await options.outcomeOf(new Invocation(target, task.run.arguments, env));
    } finally {
      running.delete(task.taskId);
      questions.rejectAll(new Error("The task is over."));
    }
  };
  const sweeper = takeover({ tasks: shared.tasks, holder: shared.holder, leaseMs, rerun });
  let sweeping = false;
  const timer = setInterval(
    () => {
      if (sweeping || shared.signal?.aborted) return;
      sweeping = true;
      sweeper
        .sweep()
        .then(async (report) => {
          for (const taskId of report.failed) {
            await shared.events.publish({ type: "task-status", taskId, status: "failed" });
          }
          for (const { taskId, done } of report.rerun) {
            void done.then(() => announce(taskId)).catch((error) => shared.report(error));
          }
        })
        .catch((error) => shared.report(error))
        .finally(() => {
          sweeping = false;
        });
    },
    Math.max(1, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  shared.signal?.addEventListener("abort", () => clearInterval(timer), { once: true });
}
