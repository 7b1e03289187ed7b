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
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const BIN = fileURLToPath(new URL("../packages/codegen/bin/mcp-gen.js", import.meta.url));
const { values } = parseArgs({
  options: { tasks: { type: "string", default: "300" }, rounds: { type: "string", default: "3" } },
});
const TASKS = Number(values.tasks);
const ROUNDS = Number(values.rounds);
const redis = process.env.MCP_GEN_REDIS_URL;
const postgres = process.env.LEDGER_PG_URL;
if (!redis || !postgres)
  throw new Error("needs MCP_GEN_REDIS_URL and LEDGER_PG_URL: source .ci/redis.sh and .ci/postgres.sh");
const ENGINES = [
  { name: "memory (no --state)", args: [] as string[] },
  { name: "Redis", args: ["--state", `${redis}?namespace=bench`] },
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

async function startReplica(args: string[]) {
  const child = spawn(process.execPath, [BIN, "serve", "conformance", "--http", "--port", "0", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`replica exited:\n${stderr}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
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

const results: Record<string, { task: number[]; plain: number[]; polls: number }> = {};
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
} finally {
  await Promise.all(replicas.map(({ replica }) => replica.stop()));
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
mkdirSync(new URL("results/", import.meta.url), { recursive: true });
writeFileSync(
  new URL(`results/state-${new Date().toISOString().replaceAll(":", "-")}.json`, import.meta.url),
  `${JSON.stringify({ tasks: TASKS, rounds: ROUNDS, load: os.loadavg(), table }, null, 2)}\n`,
);
