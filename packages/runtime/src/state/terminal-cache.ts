import { expiresAt, TERMINAL } from "../server/task-records.ts";
import type { TaskRecord } from "../server/task-store.ts";
import type { SharedTaskStore } from "./types.ts";

/** How many ended tasks a replica remembers by default. */
const DEFAULT_SIZE = 1_000;

/**
 * A shared task store that remembers the tasks it saw end (a terminal record no longer changes:
 * the store's contract) and answers `get` for them without a round trip to the engine, until
 * their TTL. The replica that ran a task answers `tasks/get` of its result from memory; any
 * other reads the engine once, then from memory too. Owner and expiry are checked as the engine
 * does. Keeps the `size` most recently seen (oldest forgotten first).
 */
export function withTerminalCache(
  store: SharedTaskStore,
  options: { now?: () => number; size?: number } = {},
): SharedTaskStore {
  const now = options.now ?? Date.now;
  const size = options.size ?? DEFAULT_SIZE;
  const ended = new Map<string, TaskRecord>();
  const seen = <T extends TaskRecord | undefined>(task: T): T => {
    if (task && TERMINAL.includes(task.status)) {
      ended.delete(task.taskId);
      ended.set(task.taskId, task);
      if (ended.size > size) ended.delete(ended.keys().next().value!);
    }
    return task;
  };
  return {
    create: (task) => store.create(task),
    ask: (taskId, questions) => store.ask(taskId, questions),
    answer: (taskId, answers) => store.answer(taskId, answers),
    acquireLease: (taskId, lease) => store.acquireLease(taskId, lease),
    renewLease: (taskId, lease) => store.renewLease(taskId, lease),
    releaseLease: (taskId, holder) => store.releaseLease(taskId, holder),
    lapsed: (options) => store.lapsed(options),
    list: (options) => store.list(options),
    async get(taskId, owner) {
      const known = ended.get(taskId);
      if (known) {
        const at = expiresAt(known);
        if (at !== null && at <= now()) {
          ended.delete(taskId);
          return undefined;
        }
        return known.owner === owner ? known : undefined;
      }
      return seen(await store.get(taskId, owner));
    },
    setStatus: async (taskId, status, message) => seen(await store.setStatus(taskId, status, message)),
    storeResult: async (taskId, outcome) => seen(await store.storeResult(taskId, outcome)),
    cancel: async (taskId) => seen(await store.cancel(taskId)),
    async finish(taskId, holder, outcome) {
      const result = await store.finish(taskId, holder, outcome);
      seen(result.task);
      return result;
    },
  };
}
