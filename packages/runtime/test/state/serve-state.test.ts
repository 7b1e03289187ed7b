import { type McpGenServerEvent, type RunningServer, serve } from "@mcp-gen/runtime/server";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openState, type SharedState } from "../../src/state/index.ts";
import { catalogManifest } from "../server/fixtures/catalog/manifest.ts";
import { type BuiltTasks, buildTasks } from "../server/support/tasks.ts";
import { ENGINES_SKIP, type OwnEngine, ownPostgres, ownRedis } from "./engines.ts";

/**
 * `serve({ state })` over HTTP with two replicas in this process on a real engine of the test's
 * own: resource updates published on one reach 2026-07-28 listeners of the other, and `/readyz`
 * follows the engine.
 */
const engines = [
  { name: "Redis", own: ownRedis },
  { name: "PostgreSQL", own: ownPostgres },
];

for (const engine of engines) {
  describe.skipIf(ENGINES_SKIP)(`serve() with state on ${engine.name}`, () => {
    let own!: OwnEngine;
    const errors: string[] = [];
    const replicas: RunningServer[] = [];
    const clients: Client[] = [];
    let built: BuiltTasks | undefined;
    let tasksState: SharedState | undefined;
    let tasksServer: RunningServer | undefined;

    beforeAll(async () => {
      own = await engine.own();
      built = await buildTasks();
      // A replica serving task tools, on a state opened by the caller (a short wait for the engine).
      tasksState = await openState(own.url, { unavailableAfterMs: 500 });
      tasksServer = await serve(built.manifest, {
        transport: "http",
        http: { port: 0 },
        state: tasksState,
        onError: () => {},
      });
      for (let i = 0; i < 2; i++) {
        replicas.push(
          await serve(catalogManifest(), {
            transport: "http",
            http: { port: 0 },
            state: own.url,
            onError: (event: McpGenServerEvent) => {
              if (event.kind === "protocol") errors.push(event.error.message);
            },
          }),
        );
      }
    });
    afterAll(async () => {
      for (const client of clients) await client.close();
      for (const replica of replicas) await replica.close();
      await tasksServer?.close();
      await tasksState?.close();
      built?.dispose();
      await own?.dispose();
    });

    it("delivers a resource update published on replica B to a listener on replica A", async () => {
      const [a, b] = replicas as [RunningServer, RunningServer];
      const client = new Client(
        { name: "listener", version: "1.0.0" },
        { versionNegotiation: { mode: { pin: "2026-07-28" } } },
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(a.url!)));
      clients.push(client);
      const seen: string[] = [];
      let arrived!: () => void;
      const heard = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      client.setNotificationHandler("notifications/resources/updated", (n) => {
        seen.push(n.params.uri);
        arrived();
      });
      const subscription = await client.listen({ resourceSubscriptions: ["test://static-text"] });
      clients.push(subscription as unknown as Client);
      b.notifyResourceUpdated("test://static-text");
      await heard;
      expect(seen).toStrictEqual(["test://static-text"]);
    });

    it("answers /readyz 503 and fails calls that need the engine with the reason while it is unreachable, 200 once it is back", async () => {
      const ready = new URL("/readyz", replicas[0]!.url!);
      const probe = async () => {
        const response = await fetch(ready);
        return [response.status, await response.json()];
      };
      expect(await probe()).toStrictEqual([200, { status: "ready" }]);
      await own.stop();
      try {
        expect(await probe()).toStrictEqual([503, { status: "unavailable" }]);
        expect(await probe()).toStrictEqual([503, { status: "unavailable" }]);
        const reported = errors.filter((e) => e.startsWith(`The state engine at ${own.url}`));
        expect(reported).toHaveLength(1);
        // A call that needs the engine fails with the reason, instead of a task nobody can find.
        const response = await fetch(tasksServer!.url!, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": "tools/call",
            "mcp-name": "countdown",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: {
              name: "countdown",
              arguments: { steps: 1 },
              _meta: {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": { name: "down", version: "1.0.0" },
                "io.modelcontextprotocol/clientCapabilities": {
                  extensions: { "io.modelcontextprotocol/tasks": {} },
                },
              },
            },
          }),
        });
        const { error } = (await response.json()) as { error: { code: number; message: string } };
        expect(error.code).toBe(-32603);
        expect(error.message).toMatch(
          new RegExp(`^The state engine at ${own.url.replace(/[/.]/g, "\\$&")}/? is unreachable: `),
        );
      } finally {
        await own.start();
      }
      // The replica reconnects on its own; readiness follows (probed until then, as a balancer does).
      let status = 0;
      while (status !== 200) {
        status = (await fetch(ready)).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await probe()).toStrictEqual([200, { status: "ready" }]);
    });
  });
}
