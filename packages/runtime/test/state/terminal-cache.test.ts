import { describe, expect, it } from "vitest";
import { memoryState } from "../../src/state/index.ts";
import { withTerminalCache } from "../../src/state/terminal-cache.ts";
import type { SharedTaskStore } from "../../src/state/types.ts";

/** A store that counts the `get`s that reach it. */
function counted(store: SharedTaskStore) {
  const reads = { count: 0 };
  const get: SharedTaskStore["get"] = (taskId, owner) => {
    reads.count++;
    return store.get(taskId, owner);
  };
  return { store: Object.assign(Object.create(null), store, { get }) as SharedTaskStore, reads };
}

describe("withTerminalCache", () => {
  it("answers get of a task it saw end without the engine, for its owner only, until its TTL", async () => {
    let clock = Date.parse("2026-01-01T00:00:00Z");
    const now = () => clock;
    const engine = memoryState({ now }).tasks;
    const { store, reads } = counted(engine);
    const cached = withTerminalCache(store, { now });
    const task = await cached.create({ ttlMs: 1_000, owner: "s1", lease: { holder: "r1", ttlMs: 500 } });
    // Not over yet: read from the engine each time.
    expect(await cached.get(task.taskId, "s1")).toMatchObject({ status: "working" });
    expect(reads.count).toBe(1);
    const ended = await cached.finish(task.taskId, "r1", { status: "completed", result: { content: [] } });
    expect(ended.stored).toBe(true);
    expect(await cached.get(task.taskId, "s1")).toStrictEqual(await engine.get(task.taskId, "s1"));
    expect(await cached.get(task.taskId, "s2")).toBeUndefined();
    expect(reads.count).toBe(1);
    clock += 1_000;
    expect(await cached.get(task.taskId, "s1")).toBeUndefined();
  });

  it("remembers a task another replica ended after one read, and only the latest `size`", async () => {
    const engine = memoryState().tasks;
    const { store, reads } = counted(engine);
    const cached = withTerminalCache(store, { size: 1 });
    const first = await engine.create({ ttlMs: null });
    const second = await engine.create({ ttlMs: null });
    await engine.cancel(first.taskId);
    await engine.storeResult(second.taskId, { status: "failed", error: { code: -1, message: "no" } });
    await cached.get(first.taskId);
    await cached.get(first.taskId);
    expect(reads.count).toBe(1);
    await cached.get(second.taskId);
    await cached.get(first.taskId);
    expect(reads.count).toBe(3);
  });
});
