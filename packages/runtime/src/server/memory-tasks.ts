import type { SharedTaskStore } from "../state/types.ts";
import { CANCELLED_MESSAGE, expiresAt, newRecord, TERMINAL } from "./task-records.ts";
import type { TaskLease, TaskRecord } from "./task-store.ts";

/**
 * Tasks in a `Map` of this process: `memoryTaskStore()` (the default store of a server) and the
 * tasks of the in-memory state engine (`memory:`) are this one store. Records are copied in and
 * out (`structuredClone`), so a caller never changes a stored record by accident.
 */
export function memoryTasks(now: () => number, pageSize: number): SharedTaskStore {
  const tasks = new Map<string, TaskRecord>();
  const live = (taskId: string) => {
    const task = tasks.get(taskId);
    if (!task) return undefined;
    const at = expiresAt(task);
    if (at === null || at > now()) return task;
    tasks.delete(taskId);
    return undefined;
  };
  const copy = (task: TaskRecord | undefined) => (task ? structuredClone(task) : undefined);
  /** Applies `apply` to a live, non-terminal task; the task as it is now. */
  const change = async (taskId: string, apply: (task: TaskRecord) => boolean | undefined) =>
    (await applied(taskId, apply)).task;
  const applied = async (taskId: string, apply: (task: TaskRecord) => boolean | undefined) => {
    const task = live(taskId);
    const stored = task !== undefined && !TERMINAL.includes(task.status) && apply(task) !== false;
    if (stored) {
      task.lastUpdatedAt = new Date(now()).toISOString();
      if (TERMINAL.includes(task.status)) delete task.lease;
    }
    return { stored, task: copy(task) };
  };
  const outcomeOf = (outcome: Parameters<SharedTaskStore["storeResult"]>[1]) => (task: TaskRecord) => {
    task.status = outcome.status;
    if (outcome.status === "completed") task.result = structuredClone(outcome.result);
    else task.error = structuredClone(outcome.error);
    return true;
  };
  const lease = (taskId: string, holder: string, ttlMs: number, mayTake: (l?: TaskLease) => boolean) => {
    const task = live(taskId);
    if (!task || TERMINAL.includes(task.status) || !mayTake(task.lease)) return Promise.resolve(undefined);
    task.lease = { holder, expiresAt: now() + ttlMs };
    return Promise.resolve({ ...task.lease });
  };
  return {
    async create(input) {
      for (const id of tasks.keys()) live(id);
      const task = newRecord(input, now());
      tasks.set(task.taskId, task);
      return copy(task)!;
    },
    async get(taskId, owner) {
      const task = live(taskId);
      return task && task.owner === owner ? copy(task) : undefined;
    },
    setStatus: (taskId, status, statusMessage) =>
      change(taskId, (task) => {
        task.status = status;
        if (statusMessage !== undefined) task.statusMessage = statusMessage;
      }),
    storeResult: (taskId, outcome) => change(taskId, outcomeOf(outcome)),
    finish: (taskId, holder, outcome) =>
      applied(taskId, (task) => {
        if (task.lease?.holder !== holder) return false;
        outcomeOf(outcome)(task);
        return true;
      }),
    cancel: (taskId) =>
      change(taskId, (task) => {
        task.status = "cancelled";
        task.statusMessage = CANCELLED_MESSAGE;
        task.cancelRequested = true;
      }),
    ask: (taskId, questions) =>
      change(taskId, (task) => {
        task.questions = { ...task.questions, ...structuredClone(questions) };
        task.status = "input_required";
      }),
    async answer(taskId, answers) {
      const accepted: string[] = [];
      const task = await change(taskId, (task) => {
        for (const [key, value] of Object.entries(answers)) {
          if (!task.questions || !(key in task.questions)) continue;
          delete task.questions[key];
          task.answers = { ...task.answers, [key]: structuredClone(value) };
          accepted.push(key);
        }
        if (accepted.length === 0) return false;
        if (Object.keys(task.questions ?? {}).length === 0) delete task.questions;
        if (task.questions === undefined && task.status === "input_required") {
          task.status = "working";
        }
        return true;
      });
      return { task, accepted };
    },
    acquireLease: (taskId, { holder, ttlMs }) =>
      lease(taskId, holder, ttlMs, (l) => !l || l.holder === holder || l.expiresAt <= now()),
    renewLease: (taskId, { holder, ttlMs }) => lease(taskId, holder, ttlMs, (l) => l?.holder === holder),
    async releaseLease(taskId, holder) {
      const task = live(taskId);
      if (task?.lease?.holder === holder) delete task.lease;
    },
    async lapsed({ limit = 100 } = {}) {
      const found: TaskRecord[] = [];
      for (const id of tasks.keys()) {
        const task = live(id);
        if (!task || TERMINAL.includes(task.status) || !task.lease || task.lease.expiresAt > now()) continue;
        found.push(copy(task)!);
        if (found.length === limit) break;
      }
      return found;
    },
    async list({ cursor, owner } = {}) {
      const mine = [...tasks.keys()].map(live).filter((t) => t !== undefined && t.owner === owner);
      let start = 0;
      if (cursor !== undefined) {
        const at = mine.findIndex((t) => t!.taskId === cursor);
        if (at < 0) throw new RangeError(`Invalid cursor: ${JSON.stringify(cursor)}`);
        start = at + 1;
      }
      const page = mine.slice(start, start + pageSize).map((t) => copy(t)!);
      const last = page.at(-1);
      return start + pageSize < mine.length && last
        ? { tasks: page, nextCursor: last.taskId }
        : { tasks: page };
    },
  };
}
