import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openState, type SharedState, StateUnavailableError } from "../../src/state/index.ts";
import { ENGINES_SKIP, freePort, type OwnEngine, ownPostgres, ownRedis } from "./engines.ts";

/**
 * What happens when the engine goes away: each test runs its own Redis (append-only file on) or
 * PostgreSQL, which it kills and starts again on the same port and data.
 */
const engines = [
  { name: "Redis", own: ownRedis, scheme: "redis" },
  { name: "PostgreSQL", own: ownPostgres, scheme: "postgres" },
];

for (const engine of engines) {
  describe.skipIf(ENGINES_SKIP)(`shared state on ${engine.name} when the engine fails`, () => {
    let own!: OwnEngine;
    let a!: SharedState;
    let b!: SharedState;

    beforeAll(async () => {
      own = await engine.own();
      // A short budget: the "unreachable later" test waits it out.
      a = await openState(own.url, { unavailableAfterMs: 1500 });
      b = await openState(own.url, { unavailableAfterMs: 1500 });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await own?.dispose();
    });

    it("names the URL, without its password, when the engine is unreachable at start", async () => {
      const port = await freePort();
      const url = `${engine.scheme}://state:s3cret@127.0.0.1:${port}/${engine.scheme === "redis" ? "0" : "postgres"}`;
      const opening = openState(url, { unavailableAfterMs: 300 });
      await expect(opening).rejects.toThrow(StateUnavailableError);
      const message = await opening.catch((error: Error) => error.message);
      expect(message).toContain(
        `Cannot reach the state engine at ${engine.scheme}://state:***@127.0.0.1:${port}/`,
      );
      expect(message).toContain("Start it, or fix the URL (--state).");
      expect(message).not.toContain("s3cret");
    });

    it("keeps every record through a crash and restart; the replicas reconnect", async () => {
      const before = [];
      for (let i = 0; i < 20; i++) before.push(await a.tasks.create({ ttlMs: 600_000, owner: "restart" }));
      await a.tasks.storeResult(before[0]!.taskId, {
        status: "completed",
        result: { content: [{ type: "text", text: "ok" }] },
      });
      await a.tasks.ask(before[1]!.taskId, { "elicit-1": { method: "elicitation/create" } });
      await a.continuations.claim("restart-1", Date.now() + 600_000);
      const kept = await Promise.all(before.map((t) => a.tasks.get(t.taskId, "restart")));

      const heard: string[] = [];
      let arrived!: () => void;
      const restartEvent = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      b.events.subscribe((event) => {
        if (event.type !== "resource-updated") return;
        heard.push(event.uri);
        if (event.uri === "file:///after") arrived();
      });

      await own.stop();
      await own.start();

      // Every record is there, through either replica, as it was.
      expect(await Promise.all(before.map((t) => b.tasks.get(t.taskId, "restart")))).toStrictEqual(kept);
      expect(await a.continuations.claim("restart-1", Date.now() + 600_000)).toBe(false);
      const after = await b.tasks.create({ ttlMs: 600_000, owner: "restart" });
      expect((await a.tasks.list({ owner: "restart" })).tasks.at(-1)?.taskId).toBe(after.taskId);
      // b's listening connection came back and hears what a publishes.
      await a.events.publish({ type: "resource-updated", uri: "file:///after" });
      await restartEvent;
      expect(heard).toStrictEqual(["file:///after"]);
      await expect(a.check()).resolves.toBeUndefined();
    });

    it("fails calls with a clear error while the engine is unreachable, then works again", async () => {
      const task = await a.tasks.create({ ttlMs: 600_000 });
      await own.stop();
      try {
        const failed = await a.tasks
          .storeResult(task.taskId, { status: "completed", result: { content: [] } })
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        expect(failed).toBeInstanceOf(StateUnavailableError);
        expect((failed as Error).message).toMatch(
          new RegExp(`^The state engine at ${own.url.replace(/[/.]/g, "\\$&")}/? is unreachable: `),
        );
        await expect(b.events.publish({ type: "list-changed", list: "tools" })).rejects.toThrow(
          StateUnavailableError,
        );
        await expect(b.continuations.claim("down", Date.now() + 60_000)).rejects.toThrow(
          StateUnavailableError,
        );
        await expect(a.check()).rejects.toThrow(StateUnavailableError);
      } finally {
        await own.start();
      }
      // Nothing was half-done: the result was not stored, and storing it now works.
      expect((await b.tasks.get(task.taskId))?.status).toBe("working");
      expect(
        (await a.tasks.storeResult(task.taskId, { status: "completed", result: { content: [] } }))?.status,
      ).toBe("completed");
    });
  });
}
