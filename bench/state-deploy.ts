/**
 * Shared state behind nginx: plain `tools/call`s per second and task round trips (create →
 * `tasks/get` until completed) per second, through nginx (examples/ledger/deploy/nginx.conf, ports
 * changed) in front of 1 and 3 `mcp-gen serve conformance --http` replicas, tasks in memory (no
 * `--state`) vs Redis vs PostgreSQL, in one run; the configurations interleaved round by round.
 * Requests are raw 2026-07-28 JSON-RPC (no session: nginx balances them round-robin), `--in-flight`
 * at a time. With 3 replicas and no `--state`, a task's `tasks/get` reaches replicas that do not
 * know it: that row has no task figures (what the shared store is for).
 *
 *   source .ci/nginx.sh; source .ci/redis.sh; source .ci/postgres.sh
 *   npx tsc -b packages/schema packages/runtime packages/codegen
 *   npx tsx bench/state-deploy.ts [--calls 1000] [--tasks 300] [--in-flight 16] [--rounds 2]
 *
 * Results also go to bench/results/state-deploy-<time>.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { findNginx, freePort, nginxConfig, startNginx } from "../examples/ledger/test/support/nginx.ts";
import { call } from "../packages/runtime/test/state/replicas.ts";
import { startReplica } from "./replica.ts";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "1000" },
    tasks: { type: "string", default: "300" },
    "in-flight": { type: "string", default: "16" },
    rounds: { type: "string", default: "2" },
  },
});
const [CALLS, TASKS, IN_FLIGHT, ROUNDS] = [
  values.calls,
  values.tasks,
  values["in-flight"],
  values.rounds,
].map(Number) as [number, number, number, number];
const nginxBinary = findNginx();
const redis = process.env.MCP_GEN_REDIS_URL;
const postgres = process.env.LEDGER_PG_URL;
if (!nginxBinary || !redis || !postgres) {
  throw new Error("needs nginx, Redis and PostgreSQL: source .ci/nginx.sh, .ci/redis.sh and .ci/postgres.sh");
}
const STATES = [
  { name: "memory", args: [] as string[] },
  { name: "Redis", args: ["--state", `${redis}?namespace=bench_deploy`] },
  { name: "PostgreSQL", args: ["--state", `${postgres}?namespace=bench_deploy`] },
];

/** Replicas of one state behind nginx. */
async function deployment(count: 1 | 3, args: string[]) {
  const port = await freePort();
  const route = (i: number) => ["--session-route", `replica-${i + 1}`, "--allowed-host", `127.0.0.1:${port}`];
  const replicas = await Promise.all(
    Array.from({ length: count }, (_, i) => startReplica([...route(i), ...args])),
  );
  const ports = replicas.map((r) => r.port);
  const nginx = await startNginx({
    binary: nginxBinary!,
    config: nginxConfig({ port, replicaPorts: [0, 1, 2].map((i) => ports[i % ports.length]!) }),
    port,
  });
  return {
    url: `${nginx.url}/mcp`,
    stop: async () => {
      await nginx.stop();
      await Promise.all(replicas.map((r) => r.stop()));
    },
  };
}

/** Runs `work` `count` times, `IN_FLIGHT` at a time: per second, and each one's milliseconds. */
async function load(count: number, work: () => Promise<unknown>) {
  const spent: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next++ < count) {
        const t = performance.now();
        await work();
        spent.push(performance.now() - t);
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, spent };
}

const plain = (url: string) =>
  call(url, "tools/call", { name: "test_simple_text", arguments: {} }, "test_simple_text");
const task = async (url: string) => {
  const created = await call(
    url,
    "tools/call",
    { name: "slow_compute", arguments: { seconds: 0 } },
    "slow_compute",
  );
  const taskId = created.taskId as string;
  let polls = 0;
  for (let got = created; got.status !== "completed"; polls++) {
    if (polls > 1000) throw new Error(`task ${taskId} never completed`);
    got = await call(url, "tasks/get", { taskId }, taskId);
  }
};

type Row = {
  state: string;
  replicas: number;
  calls: number[];
  callMs: number[];
  tasks: number[];
  taskMs: number[];
};
const rows: Row[] = [];
for (const state of STATES)
  for (const count of [1, 3] as const)
    rows.push({ state: state.name, replicas: count, calls: [], callMs: [], tasks: [], taskMs: [] });
const loads: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const row of rows) {
    const state = STATES.find((s) => s.name === row.state)!;
    const deployed = await deployment(row.replicas as 1 | 3, state.args);
    try {
      await load(Math.min(200, CALLS), () => plain(deployed.url)); // warm-up
      loads.push(os.loadavg()[0]!);
      const calls = await load(CALLS, () => plain(deployed.url));
      row.calls.push(CALLS / calls.seconds);
      row.callMs.push(...calls.spent);
      if (row.state !== "memory" || row.replicas === 1) {
        await load(Math.min(50, TASKS), () => task(deployed.url));
        const tasks = await load(TASKS, () => task(deployed.url));
        row.tasks.push(TASKS / tasks.seconds);
        row.taskMs.push(...tasks.spent);
      }
    } finally {
      await deployed.stop();
    }
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const table = rows.map((r) => ({
  state: r.state,
  replicas: r.replicas,
  callsPerSecond: Math.round(mean(r.calls)),
  callP50Ms: +p50(r.callMs).toFixed(1),
  tasksPerSecond: r.tasks.length ? Math.round(mean(r.tasks)) : null,
  taskP50Ms: r.taskMs.length ? +p50(r.taskMs).toFixed(1) : null,
}));
console.log(
  `load ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; ${ROUNDS} rounds, ${IN_FLIGHT} in flight`,
);
console.log(
  "| state | replicas | calls/s (p50 ms) | ÷ memory, 1 replica | task round trips/s (p50 ms) | ÷ memory, 1 replica |",
);
console.log("| --- | --- | --- | --- | --- | --- |");
for (const row of table) {
  const base = table.find((t) => t.state === "memory" && t.replicas === 1)!;
  const tasks =
    row.tasksPerSecond === null
      ? "– (tasks unknown to other replicas)"
      : `${row.tasksPerSecond} (${row.taskP50Ms})`;
  const taskRatio =
    row.tasksPerSecond === null ? "–" : (row.tasksPerSecond / base.tasksPerSecond!).toFixed(2);
  console.log(
    `| ${row.state} | ${row.replicas} | ${row.callsPerSecond} (${row.callP50Ms}) | ${(row.callsPerSecond / base.callsPerSecond).toFixed(2)} | ${tasks} | ${taskRatio} |`,
  );
}
mkdirSync(new URL("results/", import.meta.url), { recursive: true });
writeFileSync(
  new URL(`results/state-deploy-${new Date().toISOString().replaceAll(":", "-")}.json`, import.meta.url),
  `${JSON.stringify({ node: process.version, cpus: os.cpus().length, loads, table }, null, 2)}\n`,
);
