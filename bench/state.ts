/**
 * What the shared state costs: one `mcp-gen serve conformance --http` replica without `--state`
 * (tasks in memory) and with `--state` on Redis and on PostgreSQL, in one run, rounds interleaved.
 * Per engine: the task round trip of a 2026-07-28 client (`tools/call` of the `@task` tool
 * `slow_compute` with 0 seconds → `tasks/get` until completed), and a plain call (`greet`, no
 * task) for comparison. Requests are raw JSON-RPC over HTTP, one at a time (latency, not load).
 *
 *   source .ci/redis.sh; source .ci/postgres.sh
 *   npx tsc -b packages/schema packages/runtime packages/codegen
 *   npx tsx bench/state.ts [--tasks 300] [--rounds 3]
 *
 * Results also go to bench/results/state-<time>.json.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { startReplica } from "./replica.ts";

const { values } = parseArgs({
  options: { tasks: { type: "string", default: "300" }, rounds: { type: "string", default: "3" } },
});
const TASKS = Number(values.tasks);
const ROUNDS = Number(values.rounds);
const redis = process.env.MCP_GEN_REDIS_URL;
const postgres = process.env.LEDGER_PG_URL;
if (!redis || !postgres)
  throw new Error("needs MCP_GEN_REDIS_URL and LEDGER_PG_URL: source .ci/redis.sh and .ci/postgres.sh");
/** A second redis-server with `appendfsync everysec` (an fsync a second instead of one per write). */
const everysec = await startRedis(["--appendonly", "yes", "--appendfsync", "everysec", "--save", ""]);
const ENGINES: { name: string; args: string[]; redis?: string }[] = [
  { name: "memory (no --state)", args: [] },
  { name: "Redis", args: ["--state", `${redis}?namespace=bench`], redis },
  {
    name: "Redis, appendfsync everysec",
    args: ["--state", `${everysec.url}?namespace=bench`],
    redis: everysec.url,
  },
  { name: "PostgreSQL", args: ["--state", `${postgres}?namespace=bench`] },
];

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "state-bench", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } },
};

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
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } }),
  });
  const body = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
  if (!body.result) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** A throwaway redis-server (`MCP_GEN_REDIS_SERVER`, as .ci/redis.sh exports it) on a free port. */
async function startRedis(args: string[]) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-redis-"));
  const port = await new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
  const binary = process.env.MCP_GEN_REDIS_SERVER ?? "redis-server";
  const child = spawn(binary, ["--bind", "127.0.0.1", "--port", String(port), "--dir", dir, ...args], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (/Ready to accept connections/.test(out)) resolve();
    });
    child.once("exit", () => reject(new Error(`redis-server exited:\n${out}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      child.kill("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Milliseconds of each of `count` sequential runs of `work`. */
async function time(count: number, work: () => Promise<unknown>): Promise<number[]> {
  const spent: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await work();
    spent.push(performance.now() - started);
  }
  return spent;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const summary = (spent: number[]) => {
  const sorted = [...spent].sort((a, b) => a - b);
  const mean = spent.reduce((a, b) => a + b, 0) / spent.length;
  return {
    mean: +mean.toFixed(2),
    p50: +quantile(sorted, 0.5).toFixed(2),
    p99: +quantile(sorted, 0.99).toFixed(2),
  };
};

const taskRoundTrip = async (url: string) => {
  const created = await call(
    url,
    "tools/call",
    { name: "slow_compute", arguments: { seconds: 0 } },
    "slow_compute",
  );
  const taskId = created.taskId as string;
  let task = await call(url, "tasks/get", { taskId }, taskId);
  let polls = 1;
  while (task.status !== "completed") {
    task = await call(url, "tasks/get", { taskId }, taskId);
    polls++;
  }
  return polls;
};
const plainCall = (url: string) =>
  call(url, "tools/call", { name: "greet", arguments: { name: "bench" } }, "greet");

/**
 * The commands a replica sends Redis per task round trip, by name (scripts' own calls and the
 * bus's blocking reads left out): `MONITOR` while `count` round trips run, outside the timed rounds.
 */
async function redisProfile(url: string, replica: string, count: number): Promise<string> {
  const client = new Redis(url);
  const monitor = await client.monitor();
  const seen = new Map<string, number>();
  monitor.on("monitor", (_time: string, args: string[], source: string) => {
    const name = String(args[0]).toLowerCase();
    if (source === "lua" || name === "xread" || name === "monitor") return;
    seen.set(name, (seen.get(name) ?? 0) + 1);
  });
  await time(count, () => taskRoundTrip(replica));
  // MONITOR's stream may trail the replies: wait for a marker sent after the round trips.
  const marker = new Promise<void>((resolve) =>
    monitor.on("monitor", (_t: string, args: string[]) => args[0] === "echo" && resolve()),
  );
  const other = client.duplicate();
  await other.echo("end");
  other.disconnect();
  await marker;
  monitor.disconnect();
  client.disconnect();
  return [...seen]
    .filter(([name]) => name !== "echo")
    .map(([name, n]) => `${name} ${+(n / count).toFixed(2)}`)
    .join(", ");
}

const results: Record<string, { task: number[]; plain: number[]; polls: number }> = {};
const profiles: Record<string, string> = {};
const replicas = [];
for (const engine of ENGINES) replicas.push({ engine, replica: await startReplica(engine.args) });
try {
  for (const { engine, replica } of replicas) {
    // Warm-up: JIT, connections, prepared scripts.
    await time(50, () => taskRoundTrip(replica.url));
    await time(50, () => plainCall(replica.url));
    results[engine.name] = { task: [], plain: [], polls: 0 };
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const { engine, replica } of replicas) {
      const r = results[engine.name]!;
      r.task.push(
        ...(await time(TASKS, async () => {
          r.polls += await taskRoundTrip(replica.url);
        })),
      );
      results[engine.name]!.plain.push(...(await time(TASKS, () => plainCall(replica.url))));
    }
  }
  for (const { engine, replica } of replicas) {
    if (engine.redis) profiles[engine.name] = await redisProfile(engine.redis, replica.url, 50);
  }
} finally {
  await Promise.all(replicas.map(({ replica }) => replica.stop()));
  everysec.stop();
}

const table = Object.entries(results).map(([name, r]) => ({
  engine: name,
  task: summary(r.task),
  polls: +(r.polls / r.task.length).toFixed(2),
  plain: summary(r.plain),
}));
const base = table[0]!;
console.log(
  `load: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}; ${TASKS} × ${ROUNDS} rounds per engine, sequential`,
);
console.log(
  "| engine | task round trip mean / p50 / p99 (ms) | × memory | tasks/get per task | plain call mean / p50 / p99 (ms) | × memory |",
);
console.log("| --- | --- | --- | --- | --- | --- |");
for (const row of table) {
  console.log(
    `| ${row.engine} | ${row.task.mean} / ${row.task.p50} / ${row.task.p99} | ${(row.task.mean / base.task.mean).toFixed(2)} | ${row.polls} | ${row.plain.mean} / ${row.plain.p50} / ${row.plain.p99} | ${(row.plain.mean / base.plain.mean).toFixed(2)} |`,
  );
}
for (const [name, profile] of Object.entries(profiles)) {
  console.log(`${name}: commands a replica sends per task round trip: ${profile}`);
}
mkdirSync(new URL("results/", import.meta.url), { recursive: true });
writeFileSync(
  new URL(`results/state-${new Date().toISOString().replaceAll(":", "-")}.json`, import.meta.url),
  `${JSON.stringify({ tasks: TASKS, rounds: ROUNDS, load: os.loadavg(), table, profiles }, null, 2)}\n`,
);
