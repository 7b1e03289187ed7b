import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../../examples/ledger/test/support/nginx.ts";
import { build } from "../src/build.ts";
import { BIN } from "./support/cli.ts";
import { tempProject } from "./support/project.ts";

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

const TOOLS = `
import { appendFileSync, readFileSync } from "node:fs";
import type { ToolContext } from "@mcp-gen/runtime";

/** Resolves never; rejects when the run is aborted. */
function forever(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
}

/** Counts its runs in \`file\`; the first waits until stopped, any later one completes. */
function counted(file: string): number {
  appendFileSync(file, \`\${process.pid}\\n\`);
  return readFileSync(file, "utf8").split("\\n").filter(Boolean).length;
}

/**
 * Safe to run again: the first run waits, a run after a takeover completes.
 * @task
 * @idempotent
 * @param file Where runs are counted
 */
export async function recount(file: string, ctx: ToolContext): Promise<string> {
  const runs = counted(file);
  if (runs === 1) await forever(ctx.signal);
  return \`runs=\${runs}\`;
}

/**
 * Not safe to run again: does its side effect once, then waits until stopped.
 * @task
 * @destructive
 * @param file Where the side effect is counted
 */
export async function launch(file: string, ctx: ToolContext): Promise<string> {
  counted(file);
  return forever(ctx.signal);
}

/**
 * The board clients watch.
 * @resource jobs://board
 */
export function board(): string {
  return "the board";
}

/**
 * Tells every listener that a resource changed.
 * @param uri The resource
 */
export function touch(uri: string, ctx: ToolContext): string {
  ctx.notifyResourceUpdated(uri);
  return \`touched \${uri}\`;
}
`;

/** A 2026-07-28 request to one replica; its result, or an error naming what failed. */
async function call(url: string, method: string, params: Record<string, unknown>, name: string) {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      "mcp-name": name,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "takeover-test", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": {
            extensions: { "io.modelcontextprotocol/tasks": {} },
          },
        },
      },
    }),
  });
  const body = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
  if (!body.result)
    throw new Error(`${method} through ${url}: ${response.status} ${JSON.stringify(body.error)}`);
  return body.result;
}

/** Polls `read` every 50 ms, at most `attempts` times, until `done` holds; its last value. */
async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, attempts = 300): Promise<T> {
  let value = await read();
  for (let i = 1; i < attempts && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  if (!done(value)) throw new Error(`Never reached the state waited for: ${JSON.stringify(value)}`);
  return value;
}

const lines = (file: string) =>
  existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];

for (const engine of ENGINES) {
  describe.skipIf(SKIP || !engine.url)(
    `replicas sharing state on ${engine.name}: events, and a replica killed mid-task`,
    () => {
      let dir = "";
      const replicas: { url: string; child: ChildProcess; exited: Promise<unknown> }[] = [];

      /** A replica of the project's server; resolves once it serves. */
      async function replica() {
        const port = await freePort();
        // Each engine's namespace apart, so the other engine's test never sees these tasks.
        const state = `${engine.url}${engine.url!.includes("?") ? "&" : "?"}namespace=takeover_${engine.name.toLowerCase()}`;
        const child = spawn(
          process.execPath,
          [BIN, "serve", "jobs", "--http", "--port", String(port), "--state", state],
          {
            cwd: dir,
            env: { ...process.env, NO_COLOR: "1", MCP_GEN_STATE_LEASE_MS: "1500" },
            stdio: ["ignore", "ignore", "pipe"],
          },
        );
        let stderr = "";
        const exited = new Promise((resolve) => child.once("exit", resolve));
        await new Promise<void>((resolve, reject) => {
          child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
            stderr += chunk;
            if (/serving jobs/.test(stderr)) resolve();
          });
          void exited.then((code) => reject(new Error(`mcp-gen serve exited (${code}): ${stderr}`)));
        });
        replicas.push({ url: `http://127.0.0.1:${port}/mcp`, child, exited });
      }

      beforeAll(async () => {
        dir = tempProject({
          "mcp-gen.config.json": JSON.stringify({
            schemas: "schemas",
            generated: "generated",
            servers: { jobs: { tools: ["tools.ts"] } },
          }),
          "package.json": JSON.stringify({ type: "module" }),
          "tools.ts": TOOLS,
        });
        await build({ configFile: path.join(dir, "mcp-gen.config.json") });
        await Promise.all([replica(), replica(), replica()]);
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
    },
  );
}
