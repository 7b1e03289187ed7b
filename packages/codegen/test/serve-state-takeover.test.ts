import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { tapTransport } from "@mcp-gen/runtime/client";
import { openState } from "@mcp-gen/runtime/state";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../examples/ledger/test/support/nginx.ts";
import { call, lines, spawnServer, until } from "../../runtime/test/state/replicas.ts";
import { build } from "../src/build.ts";
import { BIN } from "./support/cli.ts";
import { tempProject } from "./support/project.ts";
import { TOOLS } from "./support/state-replicas.ts";

/**
 * Events across replicas: a listener on A hears the resource update a tool published on B.
 * A replica SIGKILLed while it runs a task (`mcp-gen serve --state`, per engine): another
 * replica takes the lapsed lease — a re-runnable (`@idempotent`) tool runs again there and
 * completes, any other ends failed "outcome unknown" and its side effect (a line in a file,
 * outside every process) happened once, never twice. The lease is short
 * (`MCP_GEN_STATE_LEASE_MS`), and every wait is bounded polling of an observable state.
 */
const ENGINES = [
  { name: "Redis", url: process.env.MCP_GEN_REDIS_URL },
  { name: "PostgreSQL", url: process.env.LEDGER_PG_URL },
];
const SKIP = process.env.MCP_GEN_STATE_SKIP === "1";
/** The key every replica shares (sealed input_required rounds). */
const KEY = "a-test-key-shared-by-the-three-replicas";

for (const engine of ENGINES.filter((e) => !e.url)) {
  describe.skipIf(SKIP)(`shared state on ${engine.name}`, () => {
    it("has the engine to run against", () => {
      throw new Error(
        "The shared state tests need Redis (MCP_GEN_REDIS_URL) and PostgreSQL (LEDGER_PG_URL): scripts/test.sh " +
          "sources .ci/redis.sh and .ci/postgres.sh. MCP_GEN_STATE_SKIP=1 skips them locally.",
      );
    });
  });
}

for (const engine of ENGINES.filter((e) => e.url)) {
  describe.skipIf(SKIP)(
    `replicas sharing state on ${engine.name}: events, and a replica killed mid-task`,
    () => {
      let dir = "";
      /** Each engine's namespace apart, so the other engine's test never sees these tasks. */
      const stateUrl = () =>
        `${engine.url}${engine.url!.includes("?") ? "&" : "?"}namespace=takeover_${engine.name.toLowerCase()}`;
      const replicas: { url: string; child: ChildProcess; exited: Promise<unknown> }[] = [];

      /** A replica of the project's server; resolves once it serves. */
      async function replica() {
        const port = await freePort();
        const started = spawnServer({
          bin: BIN,
          // The state URL comes from the project's config (`state`), with no flag.
          args: ["serve", "jobs", "--http", "--port", String(port)],
          cwd: dir,
          env: { MCP_GEN_STATE_URL: "", MCP_GEN_STATE_LEASE_MS: "1500", MCP_GEN_STATE_KEY: KEY },
          ready: /serving jobs/,
        });
        await started.serving;
        replicas.push({ url: `http://127.0.0.1:${port}/mcp`, child: started.child, exited: started.exited });
      }

      beforeAll(async () => {
        dir = tempProject({
          "mcp-gen.config.json": JSON.stringify({
            state: stateUrl(),
            schemas: "schemas",
            generated: "generated",
            servers: { jobs: { tools: ["tools.ts"] } },
          }),
          "package.json": JSON.stringify({ type: "module" }),
          "tools.ts": TOOLS,
        });
        await build({ configFile: path.join(dir, "mcp-gen.config.json") });
        await Promise.all([replica(), replica(), replica(), replica(), replica()]);
      }, 60_000);

      afterAll(async () => {
        for (const r of replicas) r.child.kill("SIGTERM");
        await Promise.all(replicas.map((r) => r.exited));
      });

      /** Starts `tool` on replica `at` and waits until its run did its side effect. */
      async function started(tool: string, at: number, file: string) {
        const created = await call(
          replicas[at]!.url,
          "tools/call",
          { name: tool, arguments: { file } },
          tool,
        );
        await until(
          () => lines(file).length,
          (n) => n === 1,
        );
        return created.taskId as string;
      }

      it("delivers to a listener on A the resource update a tool published on B", async () => {
        const client = new Client(
          { name: "listener", version: "1.0.0" },
          { versionNegotiation: { mode: { pin: "2026-07-28" } } },
        );
        const heard = new Promise<unknown>((resolve) =>
          client.setNotificationHandler("notifications/resources/updated", (n) => resolve(n.params)),
        );
        await client.connect(new StreamableHTTPClientTransport(new URL(replicas[0]!.url)));
        try {
          const subscription = await client.listen({ resourceSubscriptions: ["jobs://board"] });
          try {
            expect(
              await call(
                replicas[1]!.url,
                "tools/call",
                { name: "touch", arguments: { uri: "jobs://board" } },
                "touch",
              ),
            ).toMatchObject({ content: [{ text: "touched jobs://board" }] });
            expect(await heard).toMatchObject({ uri: "jobs://board" });
          } finally {
            await subscription.close();
          }
        } finally {
          await client.close();
        }
      });

      it("stops the run on A when its task is cancelled through B", async () => {
        const [a, b, c] = replicas.map((r) => r.url) as [string, string, string];
        const file = path.join(dir, `watched-${engine.name}.log`);
        const { taskId } = await call(a, "tools/call", { name: "watched", arguments: { file } }, "watched");
        await until(
          () => lines(file),
          (l) => l.length === 1,
        );
        await call(b, "tasks/cancel", { taskId }, taskId as string);
        // The run on A saw its signal abort: it noted it in the file.
        expect(
          await until(
            () => lines(file),
            (l) => l.length === 2,
          ),
        ).toStrictEqual(["started", "stopped"]);
        expect(await call(c, "tasks/get", { taskId }, taskId as string)).toMatchObject({
          status: "cancelled",
        });
      });

      it("completes the input_required retry of a @readOnly tool on another replica, once", async () => {
        const [a, b, c] = replicas.map((r) => r.url) as [string, string, string];
        const first = await call(a, "tools/call", { name: "greet_user", arguments: {} }, "greet_user");
        expect(first).toMatchObject({
          resultType: "input_required",
          inputRequests: { user_name: { method: "elicitation/create" } },
        });
        const retry = {
          name: "greet_user",
          arguments: {},
          inputResponses: { user_name: { action: "accept", content: { name: "Ada" } } },
          requestState: first.requestState,
        };
        expect(await call(b, "tools/call", retry, "greet_user")).toMatchObject({
          content: [{ type: "text", text: "Hello, Ada!" }],
        });
        // Single use, enforced by the store: the same state again on a third replica is refused.
        await expect(call(c, "tools/call", retry, "greet_user")).rejects.toThrow(
          /Invalid or expired requestState/,
        );
      });

      it("refuses the retry of a tool not safe to run again on another replica, saying where to send it", async () => {
        const [a, b] = replicas.map((r) => r.url) as [string, string];
        const file = path.join(dir, `written-${engine.name}.log`);
        const first = await call(
          a,
          "tools/call",
          { name: "confirm_write", arguments: { file } },
          "confirm_write",
        );
        const retry = {
          name: "confirm_write",
          arguments: { file },
          inputResponses: { ok: { action: "accept", content: { ok: true } } },
          requestState: first.requestState,
        };
        await expect(call(b, "tools/call", retry, "confirm_write")).rejects.toThrow(
          /not declared safe to run again .* send the retry through that replica/,
        );
        expect(lines(file)).toStrictEqual([]);
        // Through the replica that asked, it goes on (its call waited there) and writes once.
        expect(await call(a, "tools/call", retry, "confirm_write")).toMatchObject({
          content: [{ text: "accept" }],
        });
        expect(lines(file)).toStrictEqual(["written"]);
      });

      it("runs a re-runnable task again on another replica once its replica is SIGKILLed, to completion", async () => {
        const file = path.join(dir, `recount-${engine.name}.log`);
        const taskId = await started("recount", 0, file);
        replicas[0]!.child.kill("SIGKILL");
        await replicas[0]!.exited;
        const task = await until(
          () => call(replicas[1]!.url, "tasks/get", { taskId }, taskId),
          (t) => t.status !== "working",
        );
        expect(task).toMatchObject({
          status: "completed",
          result: { structuredContent: "runs=2" },
        });
        // The second run was on a surviving replica.
        expect(lines(file)[1]).not.toBe(String(replicas[0]!.child.pid));
      });

      it("ends a destructive task failed 'outcome unknown' after its replica is SIGKILLed, its side effect done once", async () => {
        const file = path.join(dir, `launch-${engine.name}.log`);
        const taskId = await started("launch", 1, file);
        replicas[1]!.child.kill("SIGKILL");
        await replicas[1]!.exited;
        const task = await until(
          () => call(replicas[2]!.url, "tasks/get", { taskId }, taskId),
          (t) => t.status !== "working",
        );
        expect(task).toMatchObject({ status: "failed", error: { code: -32603 } });
        expect((task.error as { message: string }).message).toMatch(/^Outcome unknown/);
        expect(lines(file)).toHaveLength(1);
      });

      it("re-runs a task taken over mid-way with the answers its client gave the dead replica", async () => {
        const file = path.join(dir, `ask-${engine.name}.log`);
        const [, , c, d] = replicas.map((r) => r.url) as [string, string, string, string];
        const { taskId } = (await call(
          d,
          "tools/call",
          { name: "ask_then_hold", arguments: { file } },
          "ask_then_hold",
        )) as { taskId: string };
        await until(
          () => call(c, "tasks/get", { taskId }, taskId),
          (t) => t.status === "input_required",
        );
        await call(
          c,
          "tasks/update",
          { taskId, inputResponses: { name: { action: "accept", content: { name: "Ada" } } } },
          taskId,
        );
        await until(
          () => lines(file).length,
          (n) => n === 1,
        );
        replicas[3]!.child.kill("SIGKILL");
        await replicas[3]!.exited;
        const task = await until(
          () => call(c, "tasks/get", { taskId }, taskId),
          (t) => t.status === "completed" || t.status === "failed",
        );
        // Not asked again: the answer was in the record.
        expect(task).toMatchObject({ status: "completed", result: { structuredContent: "Ada runs=2" } });
      });

      it("ends a 2025 task taken over mid-way with a clear tool error, without asking its client again", async () => {
        const file = path.join(dir, `legacy-ask-${engine.name}.log`);
        const client = new Client(
          { name: "legacy-tasks", version: "1.0.0" },
          { versionNegotiation: { mode: "legacy" }, capabilities: { elicitation: { form: {} } } },
        );
        let asked = 0;
        client.setRequestHandler("elicitation/create", () => {
          asked++;
          return { action: "accept", content: { name: "Ada" } };
        });
        const transport = new StreamableHTTPClientTransport(new URL(replicas[4]!.url));
        await client.connect(transport);
        const tap = tapTransport(client);
        const created = await tap.dispatch({
          method: "tools/call",
          params: { name: "ask_then_hold", arguments: { file }, task: { ttl: 60_000 } },
        });
        if (created.kind !== "result") throw new Error(JSON.stringify(created));
        const taskId = (created.result.task as { taskId: string }).taskId;
        // The question travels on the stream of tasks/result; answered, the run counts and holds.
        void tap.dispatch({ method: "tasks/result", params: { taskId } }).catch(() => {});
        await until(
          () => lines(file).length,
          (n) => n === 1,
        );
        replicas[4]!.child.kill("SIGKILL");
        await replicas[4]!.exited;
        await client.close().catch(() => {});
        // The session died with its replica, so the record is read as its owner, in the store.
        const state = await openState(stateUrl());
        try {
          const task = await until(
            () => state.tasks.get(taskId, transport.sessionId),
            (t) => t !== undefined && t.status !== "working" && t.status !== "input_required",
          );
          expect(task).toMatchObject({ status: "completed", result: { isError: true } });
          expect(JSON.stringify(task!.result)).toMatch(
            /cannot ask its client: the replica that held its 2025 session stopped/,
          );
        } finally {
          await state.close();
        }
        // Asked once, counted once: the run taken over stopped at the question, nothing repeated.
        expect([asked, lines(file).length]).toStrictEqual([1, 1]);
      });
    },
  );
}
