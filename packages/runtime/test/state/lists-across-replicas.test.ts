import { type RunningServer, serve } from "@mcp-gen/runtime/server";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryState } from "../../src/state/index.ts";
import type { SharedState } from "../../src/state/types.ts";
import { type BuiltTasks, buildTasks } from "../server/support/tasks.ts";
import { ENGINES_MISSING, ENGINES_SKIP, PG_URL, REDIS_URL } from "./engines.ts";

/**
 * `update()` on one replica reaches the clients of every replica: two replicas over HTTP in this
 * process share one state (memory, or the real Redis / PostgreSQL, each replica with its own
 * connection); a 2026-07-28 listener and a 2025 session on B hear the list change made on A.
 */
let built: BuiltTasks;
beforeAll(async () => {
  built = await buildTasks();
});
afterAll(() => built?.dispose());

const ENGINES: { name: string; state: () => string | SharedState; missing?: boolean }[] = [
  {
    name: "memory",
    state: (() => {
      const shared = memoryState();
      return () => shared;
    })(),
  },
  { name: "Redis", state: () => `${REDIS_URL}?namespace=lists_test`, missing: !REDIS_URL },
  { name: "PostgreSQL", state: () => `${PG_URL}?namespace=lists_test`, missing: !PG_URL },
];

for (const engine of ENGINES) {
  describe.skipIf(engine.name !== "memory" && ENGINES_SKIP)(
    `list changes across replicas on ${engine.name}`,
    () => {
      if (engine.missing) {
        it("has the engine to run against", () => {
          throw new Error(ENGINES_MISSING);
        });
        return;
      }
      const replicas: RunningServer[] = [];
      const clients: Client[] = [];
      beforeAll(async () => {
        for (let i = 0; i < 2; i++) {
          const options = {
            transport: "http",
            http: { port: 0 },
            listChanged: true,
            onError: () => {},
          } as const;
          replicas.push(await serve(built.manifest, { ...options, state: engine.state() }));
        }
      });
      afterAll(async () => {
        for (const client of clients) await client.close();
        for (const replica of replicas) await replica.close();
      });

      /** A client of replica `at` that resolves `heard` on its first tools/list_changed. */
      async function listener(at: number, era: "legacy" | "2026-07-28") {
        const client = new Client(
          { name: `listener-${era}`, version: "1.0.0" },
          { versionNegotiation: { mode: era === "legacy" ? "legacy" : { pin: era } } },
        );
        const heard = new Promise<true>((resolve) =>
          client.setNotificationHandler("notifications/tools/list_changed", () => resolve(true)),
        );
        await client.connect(new StreamableHTTPClientTransport(new URL(replicas[at]!.url!)));
        clients.push(client);
        return { client, heard };
      }

      it("tells a 2026-07-28 listener and a 2025 session on B of the update() made on A", async () => {
        const modern = await listener(1, "2026-07-28");
        const subscription = await modern.client.listen({ toolsListChanged: true });
        const legacy = await listener(1, "legacy");
        const fewer = {
          ...built.manifest,
          tools: built.manifest.tools.filter((t) => t.definition.name === "add"),
        };
        // A 2025 session hears its notifications on its GET stream, which its client opens on its own
        // after initializing: until then a notification has nowhere to go, so the update repeats until
        // both heard one (bounded; the outcome, not the timing, is what is checked).
        let both = false;
        void Promise.all([modern.heard, legacy.heard]).then(() => {
          both = true;
        });
        for (let i = 0; i < 100 && !both; i++) {
          replicas[0]!.update(i % 2 === 0 ? fewer : built.manifest);
          await Promise.race([
            Promise.all([modern.heard, legacy.heard]),
            new Promise((resolve) => setTimeout(resolve, 100)),
          ]);
        }
        expect(await Promise.all([modern.heard, legacy.heard])).toStrictEqual([true, true]);
        await subscription.close();
      });

      it("tells the clients of A too: its own change comes back from the bus", async () => {
        const modern = await listener(0, "2026-07-28");
        const subscription = await modern.client.listen({ toolsListChanged: true });
        replicas[0]!.update(built.manifest);
        expect(await modern.heard).toBe(true);
        await subscription.close();
      });
    },
  );
}
