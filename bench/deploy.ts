/**
 * Calls/s and latency (p50, p99) of `tools/call` through nginx (examples/ledger/deploy/nginx.conf,
 * ports changed) in front of 1 and 3 replicas of `mcp-gen serve conformance --http`, with
 * authorization off and on (OAuth: JWT access tokens from a real OpenID Provider on 127.0.0.1,
 * checked by every replica), in one run. The tool is `test_simple_text` (no I/O): what is measured
 * is the serving path, not a tool. Clients are SDK v2 clients pinned to 2026-07-28 (stateless).
 *
 *   source .ci/nginx.sh
 *   npx tsc -b packages/schema packages/runtime packages/codegen
 *   npx tsx bench/deploy.ts [--calls 3000] [--in-flight 32] [--state <url>]
 *
 * With `--state redis://…` or `postgres://…` the replicas share state (`mcp-gen serve --state`) and
 * only the configurations without authorization run: what the shared store costs a plain call.
 *
 * Results also go to bench/results/deploy-<time>.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { connectHttp } from "@mcp-gen/runtime/client";
import { findNginx, freePort, nginxConfig, startNginx } from "../examples/ledger/test/support/nginx.ts";
import {
  MACHINE,
  startAuthorizationServer,
} from "../packages/runtime/test/server/support/authorization-server.ts";
import { startReplica } from "./replica.ts";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "3000" },
    "in-flight": { type: "string", default: "32" },
    state: { type: "string" },
  },
});
const STATE = values.state ? ["--state", values.state] : [];
const CALLS = Number(values.calls);
const IN_FLIGHT = Number(values["in-flight"]);
const WARMUP = Math.min(500, CALLS);
if (!Number.isSafeInteger(CALLS) || CALLS < 1 || !Number.isSafeInteger(IN_FLIGHT) || IN_FLIGHT < 1) {
  throw new Error("--calls and --in-flight take positive whole numbers");
}
const nginxBinary = findNginx();
if (!nginxBinary) throw new Error("nginx not found: `source .ci/nginx.sh` (or LEDGER_NGINX=<path>)");

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** One configuration: replicas behind nginx, clients calling through it. */
async function measure(
  replicaCount: 1 | 3,
  auth: boolean,
  issuer: string,
  token: (resource: string) => Promise<string>,
) {
  const port = await freePort();
  const mcpUrl = `http://127.0.0.1:${port}/mcp`;
  const authArgs = auth ? ["--auth-issuer", issuer, "--auth-audience", mcpUrl] : [];
  const replicas = await Promise.all(
    Array.from({ length: replicaCount }, (_, i) =>
      startReplica([
        "--session-route",
        `replica-${i + 1}`,
        "--allowed-host",
        `127.0.0.1:${port}`,
        ...authArgs,
        ...STATE,
      ]),
    ),
  );
  // One replica: the shipped config's three servers all point at it.
  const ports = replicas.map((r) => r.port);
  const nginx = await startNginx({
    binary: nginxBinary!,
    config: nginxConfig({ port, replicaPorts: [0, 1, 2].map((i) => ports[i % ports.length]!) }),
    port,
  });
  const headers = auth ? { authorization: `Bearer ${await token(mcpUrl)}` } : undefined;
  const clients = await Promise.all(
    Array.from({ length: 8 }, () =>
      connectHttp(mcpUrl, { protocol: "2026-07-28", ...(headers ? { headers } : {}) }),
    ),
  );
  const latencies: number[] = [];
  const run = async (count: number, record: boolean) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async (_, w) => {
        while (next < count) {
          next++;
          const started = performance.now();
          const result = await clients[w % clients.length]!.client.callTool({
            name: "test_simple_text",
            arguments: {},
          });
          if (result.isError) throw new Error(`call failed: ${JSON.stringify(result.content)}`);
          if (record) latencies.push(performance.now() - started);
        }
      }),
    );
  };
  await run(WARMUP, false);
  const load = os.loadavg()[0]!;
  const started = performance.now();
  await run(CALLS, true);
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(clients.map((c) => c.close()));
  await nginx.stop();
  await Promise.all(replicas.map((r) => r.stop()));
  latencies.sort((a, b) => a - b);
  return {
    replicas: replicaCount,
    state: values.state ? new URL(values.state).protocol.replace(":", "") : "memory",
    auth,
    calls: CALLS,
    inFlight: IN_FLIGHT,
    callsPerSecond: Math.round(CALLS / seconds),
    p50Ms: Number(percentile(latencies, 50).toFixed(1)),
    p99Ms: Number(percentile(latencies, 99).toFixed(1)),
    loadAverage1m: Number(load.toFixed(2)),
  };
}

const as = await startAuthorizationServer();
try {
  const token = (resource: string) => as.token({ client: MACHINE, resource });
  const results = [];
  const configurations = [
    [1, false],
    [3, false],
    [1, true],
    [3, true],
  ] as const;
  for (const [replicas, auth] of configurations.filter(([, auth]) => !(STATE.length > 0 && auth))) {
    const result = await measure(replicas, auth, as.issuer, token);
    results.push(result);
    console.log(JSON.stringify(result));
  }
  console.table(results);
  const dir = fileURLToPath(new URL("results/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  const file = `${dir}deploy-${new Date().toISOString().replaceAll(":", "-")}.json`;
  writeFileSync(
    file,
    `${JSON.stringify({ cpus: os.cpus().length, node: process.version, results }, null, 2)}\n`,
  );
  console.log(`written to ${file}`);
} finally {
  await as.close();
}
