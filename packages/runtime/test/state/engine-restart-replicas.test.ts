import { type RunningServer, serve } from "@mcp-gen/runtime/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BuiltTasks, buildTasks } from "../server/support/tasks.ts";
import { ENGINES_SKIP, type OwnEngine, ownPostgres, ownRedis } from "./engines.ts";
import { call, until, untilTask } from "./replicas.ts";

/**
 * The engine restarts while three replicas run (Redis SIGKILLed with its append-only file on,
 * PostgreSQL stopped `-m immediate`; both started again on the same port and data): no task is
 * lost, and the replicas reconnect on their own — the store answers, and the bus carries an
 * answer given through one replica after the restart to the run waiting on another.
 */
let built: BuiltTasks;
beforeAll(async () => {
  built = await buildTasks();
});
afterAll(() => built?.dispose());

const ENGINES = [
  { name: "Redis", own: ownRedis },
  { name: "PostgreSQL", own: ownPostgres },
];

for (const engine of ENGINES) {
  describe.skipIf(ENGINES_SKIP)(`three replicas while ${engine.name} restarts`, () => {
    let own: OwnEngine | undefined;
    const replicas: RunningServer[] = [];
    const urls = () => replicas.map((r) => r.url!) as [string, string, string];
    beforeAll(async () => {
      own = await engine.own();
      for (let i = 0; i < 3; i++) {
        replicas.push(
          await serve(built.manifest, {
            transport: "http",
            http: { port: 0 },
            state: own.url,
            onError: () => {},
          }),
        );
      }
    }, 60_000);
    afterAll(async () => {
      for (const replica of replicas) await replica.close();
      await own?.dispose();
    });

    it("loses no task and carries answers across replicas again once the engine is back", async () => {
      const [a, b, c] = urls();
      // Before the restart: one task over, one waiting for its client's answer on A.
      const over = await call(b, "tools/call", { name: "countdown", arguments: { steps: 2 } }, "countdown");
      const overId = over.taskId as string;
      const done = await untilTask(c, overId, (t) => t.status === "completed");
      const asking = await call(a, "tools/call", { name: "ask_name", arguments: {} }, "ask_name");
      const askingId = asking.taskId as string;
      await untilTask(b, askingId, (t) => t.status === "input_required");

      await own!.stop();
      await own!.start();

      // The store answers every replica again, with every task as it was.
      for (const url of [a, b, c]) {
        expect(await untilTask(url, overId, () => true)).toStrictEqual(done);
        expect(await untilTask(url, askingId, () => true)).toMatchObject({ status: "input_required" });
      }
      // The answer goes in through C; A's run hears it on the bus (A reconnected its subscription).
      await call(
        c,
        "tasks/update",
        { taskId: askingId, inputResponses: { user_name: { action: "accept", content: { name: "Ada" } } } },
        askingId,
      );
      expect(
        await untilTask(b, askingId, (t) => t.status !== "input_required" && t.status !== "working"),
      ).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "Hello, Ada!" }] } });
      // New tasks run as before, and every replica is ready.
      const after = await call(c, "tools/call", { name: "countdown", arguments: { steps: 1 } }, "countdown");
      expect(await untilTask(a, after.taskId as string, (t) => t.status === "completed")).toMatchObject({
        result: { content: [{ type: "text", text: "done after 1 steps" }] },
      });
      for (const url of [a, b, c]) {
        const ready = await until(
          () => fetch(url.replace(/\/mcp$/, "/readyz")).then((r) => r.status),
          (status) => status === 200,
        );
        expect(ready).toBe(200);
      }
    });
  });
}
