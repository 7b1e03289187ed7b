import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openState, type SharedState, type StateEvent } from "../../src/state/index.ts";
import { ENGINES_MISSING, ENGINES_SKIP, REDIS_URL } from "./engines.ts";
import { until } from "./replicas.ts";

/**
 * On Redis, `finish` appends the task's `task-status` event in the script that stores the outcome
 * (one write, one fsync with `appendfsync always`), and the server's publish of the same event
 * right after is not appended again: every replica hears it exactly once.
 */
describe.skipIf(ENGINES_SKIP)("the task-status event of finish on Redis", () => {
  if (!REDIS_URL) {
    it("has Redis to run against", () => {
      throw new Error(ENGINES_MISSING);
    });
    return;
  }
  let a!: SharedState;
  let b!: SharedState;
  beforeAll(async () => {
    const namespace = `f_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
    a = await openState(REDIS_URL!, { namespace });
    b = await openState(REDIS_URL!, { namespace });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it("reaches another connection once, with the outcome stored; a finish not stored appends nothing", async () => {
    const heard: StateEvent[] = [];
    const stop = b.events.subscribe((event) => heard.push(event));
    try {
      const task = await a.tasks.create({ ttlMs: 60_000, lease: { holder: "r1", ttlMs: 60_000 } });
      const other = await a.tasks.create({ ttlMs: 60_000, lease: { holder: "r1", ttlMs: 60_000 } });
      const ended = await a.tasks.finish(task.taskId, "r1", { status: "completed", result: { content: [] } });
      expect(ended.stored).toBe(true);
      // Not the lease holder: nothing stored, nothing appended.
      expect((await a.tasks.finish(other.taskId, "r2", { status: "completed", result: {} })).stored).toBe(
        false,
      );
      const marker = async (uri: string) => {
        await a.events.publish({ type: "resource-updated", uri });
        await until(
          () => heard.length,
          () => heard.some((e) => e.type === "resource-updated" && e.uri === uri),
        );
      };
      await marker("test://first");
      const status = { type: "task-status", taskId: task.taskId, status: "completed" };
      expect(heard).toStrictEqual([status, { type: "resource-updated", uri: "test://first" }]);
      // What the server does next: publish the status it stored — dropped, appended already.
      await a.events.publish({ type: "task-status", taskId: task.taskId, status: "completed" });
      await marker("test://second");
      expect(heard.slice(2)).toStrictEqual([{ type: "resource-updated", uri: "test://second" }]);
      // Once the record says so: a reader woken by the event finds the outcome.
      expect(await b.tasks.get(task.taskId)).toMatchObject({ status: "completed" });
    } finally {
      stop();
    }
  });
});
