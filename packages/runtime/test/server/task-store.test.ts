import { isTerminal, memoryTaskStore } from "@mcp-gen/runtime/server/tasks";
import { describe, expect, it } from "vitest";

// The in-memory task store on its own: life of a record, owners, pages, expiry (a moved clock).

describe("memoryTaskStore", () => {
  it("creates working tasks with unguessable ids and keeps a terminal status", async () => {
    const store = memoryTaskStore({ now: () => Date.parse("2026-01-01T00:00:00Z") });
    const task = await store.create({ ttlMs: 1000, pollIntervalMs: 50 });
    expect(task).toEqual({
      taskId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: "working",
      createdAt: "2026-01-01T00:00:00.000Z",
      lastUpdatedAt: "2026-01-01T00:00:00.000Z",
      ttlMs: 1000,
      pollIntervalMs: 50,
    });
    expect(await store.setStatus(task.taskId, "input_required", "waiting")).toMatchObject({
      status: "input_required",
      statusMessage: "waiting",
    });
    const done = await store.storeResult(task.taskId, { status: "completed", result: { content: [] } });
    expect(done).toMatchObject({ status: "completed", result: { content: [] } });
    expect(isTerminal(done!.status)).toBe(true);
    // Over is over: neither a status, another outcome nor a cancellation changes it.
    expect(await store.setStatus(task.taskId, "working")).toMatchObject({ status: "completed" });
    expect(await store.cancel(task.taskId)).toMatchObject({ status: "completed" });
    expect(
      await store.storeResult(task.taskId, { status: "failed", error: { code: 1, message: "x" } }),
    ).toMatchObject({ status: "completed" });
    expect(await store.get("unknown")).toBeUndefined();
  });

  it("shows a task only to its owner and lists it a page at a time", async () => {
    const store = memoryTaskStore({ pageSize: 2 });
    const mine = [];
    for (let i = 0; i < 3; i++) mine.push((await store.create({ ttlMs: null, owner: "a" })).taskId);
    const theirs = await store.create({ ttlMs: null, owner: "b" });
    expect(await store.get(theirs.taskId, "a")).toBeUndefined();
    expect(await store.get(theirs.taskId, "b")).toMatchObject({ taskId: theirs.taskId });
    const first = await store.list({ owner: "a" });
    expect(first.tasks.map((t) => t.taskId)).toEqual(mine.slice(0, 2));
    const second = await store.list({ owner: "a", cursor: first.nextCursor });
    expect(second.tasks.map((t) => t.taskId)).toEqual(mine.slice(2));
    expect(second.nextCursor).toBeUndefined();
    await expect(store.list({ owner: "a", cursor: theirs.taskId })).rejects.toThrow(RangeError);
  });

  it("forgets a task once its ttl has passed; a null ttl keeps it", async () => {
    let now = 0;
    const store = memoryTaskStore({ now: () => now });
    const short = await store.create({ ttlMs: 100 });
    const forever = await store.create({ ttlMs: null });
    now = 99;
    expect(await store.get(short.taskId)).toBeDefined();
    now = 100;
    expect(await store.get(short.taskId)).toBeUndefined();
    expect(await store.cancel(short.taskId)).toBeUndefined();
    now = 1e12;
    expect((await store.list()).tasks.map((t) => t.taskId)).toEqual([forever.taskId]);
  });
});
