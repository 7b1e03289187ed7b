import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OUTCOME_UNKNOWN, openState, runLeased, type SharedState, takeover } from "../../src/state/index.ts";
import { ENGINES_SKIP, PG_URL, REDIS_URL } from "./engines.ts";

/**
 * A replica dies while running a task: another takes it over once its lease lapses. Replica `a`
 * runs (and "dies": its work never ends, nothing renews); replica `b` sweeps. The clock is the
 * test's; leases are long in real time, so no renewal timer fires during a test.
 */
const engines = [
  { name: "memory", url: "memory:" },
  { name: "Redis", url: REDIS_URL },
  { name: "PostgreSQL", url: PG_URL },
].filter((e) => e.url !== undefined && !(ENGINES_SKIP && e.url !== "memory:"));

const LEASE_MS = 60_000;

for (const engine of engines) {
  describe(`task takeover on ${engine.name}`, () => {
    let clock = Date.now();
    const now = () => clock;
    let a!: SharedState;
    let b!: SharedState;
    beforeAll(async () => {
      const namespace = `t_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
      a = await openState(engine.url!, { namespace, now });
      b = engine.url === "memory:" ? a : await openState(engine.url!, { namespace, now });
    });
    afterAll(async () => {
      await a?.close();
      if (b !== a) await b?.close();
    });

    /** Starts a task on `a` whose run never ends on its own (the replica will "die"). */
    const startOnA = async (tool: string, rerunnable: boolean) => {
      const task = await a.tasks.create({ ttlMs: 600_000, run: { tool, arguments: { n: 1 }, rerunnable } });
      await a.tasks.acquireLease(task.taskId, { holder: "a", ttlMs: LEASE_MS });
      let finish!: () => void;
      const stuck = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const run = runLeased({
        tasks: a.tasks,
        taskId: task.taskId,
        holder: "a",
        leaseMs: LEASE_MS,
        work: async () => {
          await stuck;
          return { status: "completed", result: { content: [{ type: "text", text: "late, from a" }] } };
        },
      });
      return { task, run, finish };
    };

    it("runs a re-runnable task again on another replica; the dead run's late outcome is dropped", async () => {
      const { task, run, finish } = await startOnA("lookup", true);
      const reruns: string[] = [];
      const sweeper = takeover({
        tasks: b.tasks,
        holder: "b",
        leaseMs: LEASE_MS,
        rerun: async (t) => {
          reruns.push(`${t.run?.tool}(${JSON.stringify(t.run?.arguments)})`);
          return { status: "completed", result: { content: [{ type: "text", text: "from b" }] } };
        },
      });
      // Lease still held: nothing to take.
      expect((await sweeper.sweep()).rerun).toStrictEqual([]);
      clock += LEASE_MS;
      const report = await sweeper.sweep();
      expect(report.rerun.map((r) => r.taskId)).toStrictEqual([task.taskId]);
      expect(await report.rerun[0]!.done).toBe(true);
      expect(reruns).toStrictEqual(['lookup({"n":1})']);
      expect(await a.tasks.get(task.taskId)).toMatchObject({
        status: "completed",
        result: { content: [{ text: "from b" }] },
      });
      // Replica a was only stalled: its renewal fails, its outcome is not stored.
      expect(await run.renew()).toBe(false);
      finish();
      expect(await run.done).toBe(false);
      expect((await b.tasks.get(task.taskId))?.result).toStrictEqual({
        content: [{ type: "text", text: "from b" }],
      });
      // Nothing left to take.
      expect(await sweeper.sweep()).toStrictEqual({ rerun: [], failed: [] });
    });

    it("ends any other task as failed with 'outcome unknown', never running its tool twice", async () => {
      const { task, run } = await startOnA("transfer", false);
      let sideEffects = 0;
      const sweepers = ["b", "c"].map((holder) =>
        takeover({
          tasks: holder === "b" ? b.tasks : a.tasks,
          holder,
          leaseMs: LEASE_MS,
          rerun: async () => {
            sideEffects++;
            return { status: "completed", result: { content: [] } };
          },
        }),
      );
      clock += LEASE_MS;
      // Two replicas sweep at once: one ends the task, the other finds nothing to do.
      const reports = await Promise.all(sweepers.map((s) => s.sweep()));
      expect(reports.flatMap((r) => r.failed)).toStrictEqual([task.taskId]);
      expect(reports.flatMap((r) => r.rerun)).toStrictEqual([]);
      expect(sideEffects).toBe(0);
      expect(await b.tasks.get(task.taskId)).toMatchObject({ status: "failed", error: OUTCOME_UNKNOWN });
      expect(await run.renew()).toBe(false);
    });
  });
}
