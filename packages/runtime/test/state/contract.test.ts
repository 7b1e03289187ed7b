import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openState, type SharedState, type StateEvent } from "../../src/state/index.ts";
import { ENGINES_MISSING, ENGINES_SKIP, PG_URL, REDIS_URL } from "./engines.ts";

/**
 * One behaviour, three engines: every engine passes the same suite, against real servers. Two
 * connections (`a`, `b`: two replicas) share one namespace and one clock the tests move.
 */
const engines = [
  { name: "memory", url: "memory:" },
  { name: "Redis", url: REDIS_URL },
  { name: "PostgreSQL", url: PG_URL },
];

if (!REDIS_URL || !PG_URL) {
  describe.skipIf(ENGINES_SKIP)("shared state engines", () => {
    it("have Redis (MCP_GEN_REDIS_URL) and PostgreSQL (LEDGER_PG_URL) to run against", () => {
      throw new Error(ENGINES_MISSING);
    });
  });
}

for (const engine of engines.filter((e) => e.url !== undefined)) {
  describe(`shared state on ${engine.name}`, () => {
    let clock = Date.now();
    const now = () => clock;
    let a!: SharedState;
    let b!: SharedState;

    beforeAll(async () => {
      const namespace = `t_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
      a = await openState(engine.url!, { namespace, now, pageSize: 2 });
      b = engine.url === "memory:" ? a : await openState(engine.url!, { namespace, now, pageSize: 2 });
    });
    afterAll(async () => {
      await a?.close();
      if (b !== a) await b?.close();
    });

    it("creates tasks one replica reads through another, each owner seeing only its own", async () => {
      const mine = [];
      for (let i = 0; i < 3; i++)
        mine.push(await a.tasks.create({ ttlMs: 60_000, pollIntervalMs: 500, owner: "alice" }));
      const theirs = await b.tasks.create({ ttlMs: null, owner: "bob" });
      const anonymous = await b.tasks.create({ ttlMs: 60_000 });
      expect(await b.tasks.get(mine[0]!.taskId, "alice")).toStrictEqual(mine[0]);
      expect(mine[0]).toMatchObject({
        status: "working",
        ttlMs: 60_000,
        pollIntervalMs: 500,
        owner: "alice",
      });
      expect(await b.tasks.get(mine[0]!.taskId, "bob")).toBeUndefined();
      expect(await b.tasks.get(mine[0]!.taskId)).toBeUndefined();
      expect(await a.tasks.get(theirs.taskId, "bob")).toStrictEqual(theirs);
      expect(await a.tasks.get(anonymous.taskId)).toStrictEqual(anonymous);
      // Pages of two, oldest first, through either replica.
      const first = await b.tasks.list({ owner: "alice" });
      expect(first.tasks.map((t) => t.taskId)).toStrictEqual(mine.slice(0, 2).map((t) => t.taskId));
      const second = await a.tasks.list({ owner: "alice", cursor: first.nextCursor! });
      expect(second).toStrictEqual({ tasks: [mine[2]] });
      expect((await a.tasks.list({ owner: "bob" })).tasks.map((t) => t.taskId)).toStrictEqual([
        theirs.taskId,
      ]);
      await expect(a.tasks.list({ owner: "alice", cursor: theirs.taskId })).rejects.toThrow(RangeError);
    });

    it("moves a task through its statuses until it is over, then no longer", async () => {
      const task = await a.tasks.create({ ttlMs: 60_000 });
      clock += 10;
      expect(await b.tasks.setStatus(task.taskId, "working", "half way")).toMatchObject({
        status: "working",
        statusMessage: "half way",
        lastUpdatedAt: new Date(clock).toISOString(),
      });
      // A result with empty arrays and objects, nested: kept exactly.
      const result = { content: [], structuredContent: { items: [], nested: { empty: {} } }, isError: false };
      const done = await a.tasks.storeResult(task.taskId, { status: "completed", result });
      expect(done).toMatchObject({ status: "completed", result });
      expect(await b.tasks.get(task.taskId)).toStrictEqual(done);
      expect(await b.tasks.setStatus(task.taskId, "working")).toStrictEqual(done);
      expect(await b.tasks.cancel(task.taskId)).toStrictEqual(done);
      const failing = await b.tasks.create({ ttlMs: 60_000 });
      const error = { code: -32603, message: "outcome unknown", data: { replica: "a" } };
      expect(await a.tasks.storeResult(failing.taskId, { status: "failed", error })).toMatchObject({
        status: "failed",
        error,
      });
      expect(await a.tasks.setStatus(randomUUID(), "working")).toBeUndefined();
    });

    it("keeps questions and answers, each key answered once, whichever replica answers", async () => {
      const task = await a.tasks.create({ ttlMs: 60_000 });
      const question = {
        method: "elicitation/create",
        params: { message: "Sure?", requestedSchema: { type: "object", properties: {} } },
      };
      await a.tasks.ask(task.taskId, { "elicit-1": question });
      const asked = await b.tasks.ask(task.taskId, { "elicit-2": question });
      expect(asked).toMatchObject({
        status: "input_required",
        questions: { "elicit-1": question, "elicit-2": question },
      });
      const reply = { action: "accept", content: { confirm: true } };
      const first = await b.tasks.answer(task.taskId, { "elicit-1": reply, unknown: 1 });
      expect(first.accepted).toStrictEqual(["elicit-1"]);
      expect(first.task).toMatchObject({
        status: "input_required",
        questions: { "elicit-2": question },
        answers: { "elicit-1": reply },
      });
      expect(
        (await a.tasks.answer(task.taskId, { "elicit-1": { action: "decline" } })).accepted,
      ).toStrictEqual([]);
      const last = await a.tasks.answer(task.taskId, { "elicit-2": { action: "decline" } });
      expect(last.accepted).toStrictEqual(["elicit-2"]);
      expect(last.task?.status).toBe("working");
      expect(last.task?.questions).toBeUndefined();
      expect((await b.tasks.get(task.taskId))?.answers).toStrictEqual({
        "elicit-1": reply,
        "elicit-2": { action: "decline" },
      });
    });

    it("sets the cancel flag one replica sees when another cancels", async () => {
      const task = await a.tasks.create({ ttlMs: 60_000 });
      await a.tasks.acquireLease(task.taskId, { holder: "a", ttlMs: 10_000 });
      const cancelled = await b.tasks.cancel(task.taskId);
      expect(cancelled).toMatchObject({
        status: "cancelled",
        cancelRequested: true,
        statusMessage: "Cancelled by the client",
      });
      expect(cancelled?.lease).toBeUndefined();
      expect(await a.tasks.get(task.taskId)).toStrictEqual(cancelled);
    });

    it("forgets tasks past their TTL", async () => {
      const brief = await a.tasks.create({ ttlMs: 1000, owner: "ttl" });
      const forever = await a.tasks.create({ ttlMs: null, owner: "ttl" });
      clock += 999;
      expect((await b.tasks.get(brief.taskId, "ttl"))?.taskId).toBe(brief.taskId);
      clock += 1;
      expect(await b.tasks.get(brief.taskId, "ttl")).toBeUndefined();
      expect(await b.tasks.setStatus(brief.taskId, "working")).toBeUndefined();
      expect((await a.tasks.list({ owner: "ttl" })).tasks.map((t) => t.taskId)).toStrictEqual([
        forever.taskId,
      ]);
    });

    it("leases a task to one replica, renewed while it runs, taken over once it lapses", async () => {
      const task = await a.tasks.create({
        ttlMs: 60_000,
        run: { tool: "slow_compute", arguments: { seconds: 1 }, rerunnable: true },
      });
      expect(await a.tasks.acquireLease(task.taskId, { holder: "a", ttlMs: 1000 })).toStrictEqual({
        holder: "a",
        expiresAt: clock + 1000,
      });
      expect(await b.tasks.acquireLease(task.taskId, { holder: "b", ttlMs: 1000 })).toBeUndefined();
      expect(await b.tasks.renewLease(task.taskId, { holder: "b", ttlMs: 1000 })).toBeUndefined();
      clock += 900;
      expect(await a.tasks.renewLease(task.taskId, { holder: "a", ttlMs: 1000 })).toStrictEqual({
        holder: "a",
        expiresAt: clock + 1000,
      });
      clock += 999;
      expect((await b.tasks.lapsed()).map((t) => t.taskId)).not.toContain(task.taskId);
      clock += 1;
      // Replica a died: its lease lapsed; b finds the task with what it runs, and takes it.
      const lapsed = (await b.tasks.lapsed()).find((t) => t.taskId === task.taskId);
      expect(lapsed?.run).toStrictEqual({
        tool: "slow_compute",
        arguments: { seconds: 1 },
        rerunnable: true,
      });
      expect(await b.tasks.acquireLease(task.taskId, { holder: "b", ttlMs: 1000 })).toStrictEqual({
        holder: "b",
        expiresAt: clock + 1000,
      });
      expect(await a.tasks.renewLease(task.taskId, { holder: "a", ttlMs: 1000 })).toBeUndefined();
      expect((await a.tasks.get(task.taskId))?.lease).toStrictEqual({ holder: "b", expiresAt: clock + 1000 });
      await a.tasks.releaseLease(task.taskId, "a");
      expect((await a.tasks.get(task.taskId))?.lease?.holder).toBe("b");
      await b.tasks.releaseLease(task.taskId, "b");
      expect((await a.tasks.get(task.taskId))?.lease).toBeUndefined();
      // Over: no lease any more, and none to take.
      await b.tasks.acquireLease(task.taskId, { holder: "b", ttlMs: 1000 });
      const done = await b.tasks.storeResult(task.taskId, { status: "completed", result: { content: [] } });
      expect(done?.lease).toBeUndefined();
      expect(await a.tasks.acquireLease(task.taskId, { holder: "a", ttlMs: 1000 })).toBeUndefined();
      clock += 5000;
      expect((await a.tasks.lapsed()).map((t) => t.taskId)).not.toContain(task.taskId);
    });

    it("creates a task held by its replica in the same step, whose lease lapses like any other", async () => {
      const run = { tool: "launch", arguments: {}, rerunnable: false };
      const task = await a.tasks.create({ ttlMs: 60_000, run, lease: { holder: "a", ttlMs: 1000 } });
      expect(task.lease).toStrictEqual({ holder: "a", expiresAt: clock + 1000 });
      expect((await b.tasks.get(task.taskId))?.lease).toStrictEqual({ holder: "a", expiresAt: clock + 1000 });
      expect(await b.tasks.acquireLease(task.taskId, { holder: "b", ttlMs: 1000 })).toBeUndefined();
      clock += 1000;
      // Replica a died right after creating it: the task is not left without a runner.
      expect((await b.tasks.lapsed()).map((t) => t.taskId)).toContain(task.taskId);
      expect(await b.tasks.acquireLease(task.taskId, { holder: "b", ttlMs: 1000 })).toStrictEqual({
        holder: "b",
        expiresAt: clock + 1000,
      });
    });

    it("stores a run's outcome only while its replica holds the lease: a task never ends twice", async () => {
      const task = await a.tasks.create({ ttlMs: 60_000 });
      const outcome = {
        status: "completed" as const,
        result: { content: [{ type: "text", text: "from a" }] },
      };
      // Not leased by a: nothing stored.
      expect(await a.tasks.finish(task.taskId, "a", outcome)).toMatchObject({
        stored: false,
        task: { status: "working" },
      });
      await a.tasks.acquireLease(task.taskId, { holder: "a", ttlMs: 1000 });
      clock += 1000;
      // a stalled past its lease; b took the task over and ended it first.
      await b.tasks.acquireLease(task.taskId, { holder: "b", ttlMs: 1000 });
      const late = await a.tasks.finish(task.taskId, "a", outcome);
      expect(late).toMatchObject({ stored: false, task: { status: "working", lease: { holder: "b" } } });
      const error = { code: -32603, message: "outcome unknown: the replica running this task stopped" };
      const ended = await b.tasks.finish(task.taskId, "b", { status: "failed", error });
      expect(ended.stored).toBe(true);
      expect(ended.task).toMatchObject({ status: "failed", error });
      expect(ended.task?.lease).toBeUndefined();
      expect(await b.tasks.finish(task.taskId, "b", outcome)).toMatchObject({
        stored: false,
        task: { status: "failed" },
      });
      // Both replicas race to take over a lapsed task and end it: exactly one wins.
      const raced = await a.tasks.create({ ttlMs: 60_000 });
      await a.tasks.acquireLease(raced.taskId, { holder: "dead", ttlMs: 1 });
      clock += 1;
      const takers = await Promise.all(
        [a, b, a, b].map(async (state, i) => {
          const lease = await state.tasks.acquireLease(raced.taskId, { holder: `r${i}`, ttlMs: 1000 });
          return lease ? (await state.tasks.finish(raced.taskId, `r${i}`, outcome)).stored : false;
        }),
      );
      expect(takers.filter(Boolean)).toHaveLength(1);
    });

    it("delivers an event published on one replica to the listeners of every replica", async () => {
      // Only this test's events count: on Redis, a task the earlier tests finished writes its
      // task-status event in `finish`'s script, and on a loaded machine the connection's stream reader
      // may hand it to a subscription that started after it was written.
      const ours = (event: StateEvent) => event.type !== "task-status" || event.taskId === "t-1";
      const heard = (state: SharedState, count: number) =>
        new Promise<StateEvent[]>((resolve) => {
          const seen: StateEvent[] = [];
          const stop = state.events.subscribe((event) => {
            if (!ours(event)) return;
            seen.push(event);
            if (seen.length === count) {
              stop();
              resolve(seen);
            }
          });
        });
      const onA = heard(a, 3);
      const onB = heard(b, 3);
      const events: StateEvent[] = [
        { type: "resource-updated", uri: "file:///notes.txt" },
        { type: "list-changed", list: "tools" },
        { type: "task-status", taskId: "t-1", status: "completed", owner: "alice" },
      ];
      for (const event of events) await b.events.publish(event);
      expect(await onA).toStrictEqual(events);
      expect(await onB).toStrictEqual(events);
    });

    it("lets a continuation be used once, across replicas", async () => {
      const id = randomUUID();
      expect(await a.continuations.claim(id, clock + 60_000)).toBe(true);
      expect(await b.continuations.claim(id, clock + 60_000)).toBe(false);
      const raced = randomUUID();
      const claims = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).continuations.claim(raced, clock + 60_000)),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      await expect(a.check()).resolves.toBeUndefined();
    });
  });
}
