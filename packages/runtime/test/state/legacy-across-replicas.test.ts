import { type RunningServer, serve } from "@mcp-gen/runtime/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryState } from "../../src/state/index.ts";
import type { SharedState } from "../../src/state/types.ts";
import { type BuiltTasks, buildTasks } from "../server/support/tasks.ts";
import { ENGINES_MISSING, ENGINES_SKIP, PG_URL, REDIS_URL } from "./engines.ts";

/**
 * 2025-11-25 tasks across replicas (`--stateless`: no session pins a client, so any replica
 * answers): a `tasks/result` sent to a replica that does not run the task waits there, woken by
 * the task's status events on the bus, and answers with the result the other replica stored.
 * Two replicas over HTTP in this process, on memory, Redis and PostgreSQL.
 */
let built: BuiltTasks;
beforeAll(async () => {
  built = await buildTasks();
});
afterAll(() => built?.dispose());

/** A 2025-11-25 request without a session; its JSON-RPC response (JSON or one SSE message). */
async function legacy(url: string, method: string, params: Record<string, unknown>) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
  const text = await response.text();
  const data = text.startsWith("{")
    ? text
    : text
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5))
        .find((line) => line.includes('"id":7'));
  if (!data) throw new Error(`${method} through ${url}: ${response.status} ${text}`);
  return JSON.parse(data) as { result?: Record<string, any>; error?: { code: number; message: string } };
}

const memory = memoryState();
const ENGINES: { name: string; state?: () => string | SharedState }[] = [
  { name: "memory", state: () => memory },
  ...(ENGINES_SKIP
    ? []
    : [
        { name: "Redis", ...(REDIS_URL ? { state: () => `${REDIS_URL}?namespace=legacy_test` } : {}) },
        { name: "PostgreSQL", ...(PG_URL ? { state: () => `${PG_URL}?namespace=legacy_test` } : {}) },
      ]),
];

for (const engine of ENGINES) {
  describe(`2025 tasks across replicas on ${engine.name}`, () => {
    if (!engine.state) {
      it("has the engine to run against", () => {
        throw new Error(ENGINES_MISSING);
      });
      return;
    }
    const replicas: RunningServer[] = [];
    beforeAll(async () => {
      for (let i = 0; i < 2; i++) {
        replicas.push(
          await serve(built.manifest, {
            transport: "http",
            http: { port: 0, stateless: true },
            state: engine.state!(),
            onError: () => {},
          }),
        );
      }
    });
    afterAll(async () => {
      for (const replica of replicas) await replica.close();
    });

    it("answers tasks/result through the replica that does not run the task, once the other stored it", async () => {
      const [a, b] = replicas.map((r) => r.url!) as [string, string];
      // Many steps, each a store write: the task is still running when B is asked for its result.
      const created = await legacy(a, "tools/call", {
        name: "countdown",
        arguments: { steps: 300 },
        task: { ttl: 60_000 },
      });
      const taskId = created.result?.task?.taskId as string;
      expect(created.result?.task).toMatchObject({ status: "working" });
      const result = await legacy(b, "tasks/result", { taskId });
      expect(result.result).toMatchObject({
        content: [{ type: "text", text: "done after 300 steps" }],
        _meta: { "io.modelcontextprotocol/related-task": { taskId } },
      });
      expect((await legacy(b, "tasks/get", { taskId })).result).toMatchObject({ status: "completed" });
    });

    it("ends a tasks/result waiting on B with the spec's error when the task is cancelled through B", async () => {
      const [a, b] = replicas.map((r) => r.url!) as [string, string];
      const created = await legacy(a, "tools/call", {
        name: "wait_for_cancel",
        arguments: {},
        task: { ttl: 60_000 },
      });
      const taskId = created.result?.task?.taskId as string;
      const waiting = legacy(b, "tasks/result", { taskId });
      expect((await legacy(b, "tasks/cancel", { taskId })).result).toMatchObject({ status: "cancelled" });
      expect((await waiting).error).toStrictEqual({
        code: -32602,
        message: `Task ${taskId} was cancelled: it has no result`,
      });
    });
  });
}
