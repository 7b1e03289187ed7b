import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  findNginx,
  freePort,
  NGINX_MISSING,
  nginxConfig,
  type RunningNginx,
  startNginx,
} from "../../../examples/ledger/test/support/nginx.ts";
import { call, spawnServer, untilTask } from "../../runtime/test/state/replicas.ts";
import { BIN } from "./support/cli.ts";
import { REPO_ROOT } from "./support/project.ts";

/**
 * Three `mcp-gen serve conformance --http --state <url>` replicas behind nginx (the ledger's
 * shipped config), per engine: a task created through one replica is read through the others.
 */
const NGINX = findNginx();
const ENGINES = [
  { name: "Redis", url: process.env.MCP_GEN_REDIS_URL },
  { name: "PostgreSQL", url: process.env.LEDGER_PG_URL },
];
const SKIP = process.env.MCP_GEN_STATE_SKIP === "1" || process.env.LEDGER_NGINX_SKIP === "1";
const MISSING =
  "The shared state replica test needs nginx (LEDGER_NGINX), Redis (MCP_GEN_REDIS_URL) and PostgreSQL " +
  "(LEDGER_PG_URL): scripts/test.sh sources .ci/nginx.sh, .ci/redis.sh and .ci/postgres.sh. " +
  `MCP_GEN_STATE_SKIP=1 skips it locally. ${NGINX ? "" : NGINX_MISSING}`;

/** `mcp-gen serve conformance` with `args`; `serving` resolves once it serves. */
const serveConformance = (args: string[], env: Record<string, string> = {}) =>
  spawnServer({
    bin: BIN,
    args: ["serve", "conformance", ...args],
    cwd: REPO_ROOT,
    env,
    ready: /serving conformance/,
  });

describe.skipIf(SKIP)("mcp-gen serve --state", () => {
  it("refuses to start when the engine is unreachable, naming the URL without its password", async () => {
    const port = await freePort();
    const url = `redis://app:s3cret@127.0.0.1:${port}`;
    // From the flag, and from MCP_GEN_STATE_URL (where a password is better kept than in argv).
    const served = [
      serveConformance(["--http", "--port", "0", "--state", url]),
      serveConformance(["--http", "--port", "0"], { MCP_GEN_STATE_URL: url }),
    ];
    for (const s of served) {
      expect(await s.exited).toBe(1);
      expect(s.stderr()).toContain(
        `mcp-gen: --state: Cannot reach the state engine at redis://app:***@127.0.0.1:${port}`,
      );
      expect(s.stderr()).not.toContain("s3cret");
    }
  });

  for (const engine of ENGINES) {
    describe(`three replicas behind nginx on ${engine.name}`, () => {
      if (!engine.url || !NGINX) {
        it("has the engine and nginx to run against", () => {
          throw new Error(MISSING);
        });
        return;
      }
      let nginx: RunningNginx | undefined;
      const replicas: { url: string; child: ChildProcess; exited: Promise<number | null> }[] = [];

      beforeAll(async () => {
        const port = await freePort();
        const ports = [await freePort(), await freePort(), await freePort()];
        const started = ports.map((p, i) =>
          serveConformance([
            "--http",
            "--port",
            String(p),
            "--state",
            engine.url!,
            "--session-route",
            `replica-${i + 1}`,
            "--allowed-host",
            `127.0.0.1:${port}`,
            `127.0.0.1:${p}`,
          ]),
        );
        for (const [i, s] of started.entries()) {
          replicas.push({ url: `http://127.0.0.1:${ports[i]}/mcp`, child: s.child, exited: s.exited });
        }
        await Promise.all(started.map((s) => s.serving));
        nginx = await startNginx({ binary: NGINX, config: nginxConfig({ port, replicaPorts: ports }), port });
      }, 60_000);

      afterAll(async () => {
        for (const r of replicas) r.child.kill("SIGTERM");
        await Promise.all(replicas.map((r) => r.exited));
        await nginx?.stop();
      });

      it("reads a task created through replica A at once through B, C and the balancer, with the same result", async () => {
        const [a, b, c] = replicas.map((r) => r.url) as [string, string, string];
        const created = await call(
          a,
          "tools/call",
          { name: "slow_compute", arguments: { seconds: 0, label: engine.name } },
          "slow_compute",
        );
        expect(created).toMatchObject({ resultType: "task", status: "working" });
        const taskId = created.taskId as string;
        // At once: the record is in the engine before the CreateTaskResult is sent.
        const first = await call(c, "tasks/get", { taskId }, taskId);
        expect(first).toMatchObject({ taskId, resultType: "complete" });
        // Replica A runs it; B polls through the engine until it is over.
        const task = await untilTask(b, taskId, (t) => t.status !== "working");
        expect(task).toMatchObject({
          status: "completed",
          result: { content: [{ type: "text", text: `Computed ${engine.name} for 0 seconds` }] },
        });
        const { _meta, ...same } = task;
        for (const url of [a, c, `${nginx!.url}/mcp`, `${nginx!.url}/mcp`, `${nginx!.url}/mcp`]) {
          const { _meta: _, ...seen } = await call(url, "tasks/get", { taskId }, taskId);
          expect(seen).toStrictEqual(same);
        }
        const ready = await fetch(`${replicas[1]!.url.replace(/\/mcp$/, "")}/readyz`);
        expect([ready.status, await ready.json()]).toStrictEqual([200, { status: "ready" }]);
      });

      it("hands an answer sent through C to the question of the run on B (tasks/update)", async () => {
        const [a, b, c] = replicas.map((r) => r.url) as [string, string, string];
        const created = await call(
          b,
          "tools/call",
          {
            name: "confirm_delete",
            arguments: { filename: "x.txt" },
          },
          "confirm_delete",
        );
        const taskId = created.taskId as string;
        // Every replica sees the question B's run asked: it is in the record, not in B's memory.
        const asked = await untilTask(a, taskId, (t) => t.status === "input_required");
        const [key, request] = Object.entries(asked.inputRequests as Record<string, unknown>)[0]!;
        expect(request).toMatchObject({ method: "elicitation/create", params: { message: "Delete x.txt?" } });
        expect(
          await call(
            c,
            "tasks/update",
            { taskId, inputResponses: { [key]: { action: "accept", content: { confirm: true } } } },
            taskId,
          ),
        ).toMatchObject({ resultType: "complete" });
        const done = await untilTask(
          a,
          taskId,
          (t) => t.status !== "input_required" && t.status !== "working",
        );
        expect(done).toMatchObject({
          status: "completed",
          result: { content: [{ type: "text", text: "confirmed=true" }] },
        });
      });

      it("stops the run on A when the task is cancelled through C", async () => {
        const [a, b, c] = replicas.map((r) => r.url) as [string, string, string];
        const created = await call(
          a,
          "tools/call",
          { name: "slow_compute", arguments: { seconds: 600 } },
          "slow_compute",
        );
        const taskId = created.taskId as string;
        expect(await call(c, "tasks/cancel", { taskId }, taskId)).toMatchObject({ resultType: "complete" });
        const task = await untilTask(b, taskId, (t) => t.status !== "working");
        expect(task).toMatchObject({ status: "cancelled" });
      });
    });
  }
});
