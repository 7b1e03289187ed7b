import { memoryTasks } from "../server/memory-tasks.ts";
import type { EventBus, OpenStateOptions, SharedState, StateEvent } from "./types.ts";

/**
 * The in-memory engine (`memory:`): one process's state, what a server keeps without a shared
 * engine. Replicas do not share it; tests and single-process servers use it.
 *
 * @example
 * const state = memoryState();
 * const task = await state.tasks.create({ ttlMs: 60_000 });
 */
export function memoryState(options: Pick<OpenStateOptions, "now" | "pageSize"> = {}): SharedState {
  const now = options.now ?? Date.now;
  const tasks = memoryTasks(now, options.pageSize ?? 50);
  const listeners = new Set<(event: StateEvent) => void>();
  const events: EventBus = {
    async publish(event) {
      for (const listener of [...listeners]) queueMicrotask(() => listener(structuredClone(event)));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  const claimed = new Map<string, number>();
  return {
    url: "memory:",
    tasks,
    events,
    continuations: {
      async claim(id, until) {
        for (const [key, at] of claimed) if (at <= now()) claimed.delete(key);
        if (claimed.has(id)) return false;
        claimed.set(id, until);
        return true;
      },
    },
    check: async () => {},
    close: async () => {
      listeners.clear();
    },
  };
}
