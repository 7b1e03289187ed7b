/**
 * Server benchmark: tools/call throughput and latency of `mcp-gen serve` against the official
 * SDK's McpServer (same tool, zod schemas), in memory, over stdio and over Streamable HTTP, with
 * 1 and 32 calls in flight; then cold start (spawn → initialize answered).
 *   node --import tsx/esm bench/server/run.ts [--seconds 3] [--rounds 3] [--cold-runs 10]
 *   [--only memory|stdio|http|cold]  (a transport; `cold`, which names none, runs only the cold starts)
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { serve } from "@mcp-gen/runtime/server";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { manifest } from "../../generated/smart-home/server.ts";
import { type Channel, httpChannel, memoryChannel, startHttp, stdioChannel } from "./channels.ts";
import { createSdkServer } from "./sdk-server.ts";

const ROOT = path.join(import.meta.dirname, "../..");
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const SECONDS = arg("seconds", 3);
const ROUNDS = arg("rounds", 3);
const NODE = process.execPath;
const TSX = ["--import", "tsx/esm"];
const MCP_GEN = [path.join(ROOT, "packages/codegen/bin/mcp-gen.js"), "serve", "smart-home"];
const SDK = [...TSX, path.join(import.meta.dirname, "sdk-server.ts")];
const BARE = path.join(import.meta.dirname, "bare.mjs");

const INIT = {
  jsonrpc: "2.0",
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
};
let nextId = 1;
const call = () => ({
  jsonrpc: "2.0",
  id: nextId++,
  method: "tools/call",
  params: { name: "search_devices", arguments: { query: "客厅 灯", limit: 2 } },
});

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** CPU time the server process spent per call (user + system), in µs; on a busy machine the steadier figure. */
  cpuPerCall?: number;
}

/** User + system CPU time of a process so far, in ms (Linux /proc; clock ticks of 10 ms). */
function cpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** A closed loop of `inflight` callers for `seconds`, after a warm-up; latencies in ms. */
async function measure(
  channel: Channel & { pid?: number },
  inflight: number,
  seconds: number,
): Promise<Figures> {
  const first = (await channel.call(call())) as {
    result?: { structuredContent?: unknown; isError?: boolean };
  };
  if (!first.result?.structuredContent || first.result.isError)
    throw new Error(`bad reply ${JSON.stringify(first)}`);
  const run = async (until: number, latencies?: number[]) => {
    let done = 0;
    await Promise.all(
      Array.from({ length: inflight }, async () => {
        while (performance.now() < until) {
          const t0 = performance.now();
          await channel.call(call());
          latencies?.push(performance.now() - t0);
          done++;
        }
      }),
    );
    return done;
  };
  await run(performance.now() + 500);
  const latencies: number[] = [];
  const cpuBefore = channel.pid ? cpuMs(channel.pid) : undefined;
  const start = performance.now();
  const done = await run(start + seconds * 1000, latencies);
  const elapsed = (performance.now() - start) / 1000;
  const cpuAfter = channel.pid ? cpuMs(channel.pid) : undefined;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  const figures: Figures = { rps: done / elapsed, p50: at(0.5), p99: at(0.99) };
  if (cpuBefore !== undefined && cpuAfter !== undefined)
    figures.cpuPerCall = ((cpuAfter - cpuBefore) * 1000) / done;
  return figures;
}

type Subject = { name: string; open(inflight: number): Promise<Channel & { pid?: number }> };

const subjects: Record<string, Subject[]> = {
  "in-memory": [
    {
      name: "mcp-gen",
      async open() {
        const [client, server] = InMemoryTransport.createLinkedPair();
        const running = await serve(manifest, { transport: server });
        const channel = await memoryChannel(client);
        await channel.call({ ...INIT, id: 0 });
        return { call: channel.call, close: () => running.close() };
      },
    },
    {
      name: "SDK McpServer",
      async open() {
        const [client, server] = InMemoryTransport.createLinkedPair();
        const sdk = createSdkServer();
        await sdk.connect(server);
        const channel = await memoryChannel(client);
        await channel.call({ ...INIT, id: 0 });
        return { call: channel.call, close: () => sdk.close() };
      },
    },
  ],
  stdio: [
    { name: "mcp-gen", open: () => stdioOpen(NODE, MCP_GEN) },
    { name: "SDK McpServer", open: () => stdioOpen(NODE, [...SDK, "stdio"]) },
    { name: "bare JSON-RPC loop", open: () => stdioOpen(NODE, [BARE, "stdio"]) },
  ],
  "Streamable HTTP": [
    {
      name: "mcp-gen --stateless",
      open: (n) => httpOpen([NODE, ...MCP_GEN, "--http", "--port", "0", "--stateless"], n),
    },
    {
      name: "mcp-gen (sessions)",
      open: (n) => httpOpen([NODE, ...MCP_GEN, "--http", "--port", "0"], n, true),
    },
    { name: "SDK stateless example", open: (n) => httpOpen([NODE, ...SDK, "http", "0"], n) },
    { name: "bare node:http", open: (n) => httpOpen([NODE, BARE, "http"], n) },
  ],
};

async function stdioOpen(command: string, args: string[]): Promise<Channel & { pid?: number }> {
  const channel = stdioChannel(command, args);
  await channel.call({ ...INIT, id: 0 });
  return { call: channel.call, close: channel.close, pid: channel.child.pid! };
}

async function httpOpen(
  [command, ...args]: string[],
  sockets: number,
  session = false,
): Promise<Channel & { pid?: number }> {
  const { url, child } = await startHttp(command!, args);
  let id: string | undefined;
  if (session) {
    const { request } = await import("node:http");
    id = await new Promise<string>((resolve, reject) => {
      const req = request(
        url,
        {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        },
        (res) => {
          res.resume();
          resolve(String(res.headers["mcp-session-id"]));
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ ...INIT, id: 0 }));
    });
  }
  const channel = httpChannel(url, sockets, id);
  return {
    call: channel.call,
    pid: child.pid!,
    close: async () => {
      await channel.close();
      child.kill();
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Spawn → `initialize` answered, in ms (median); runs alternate between the commands. */
async function coldStart(
  commands: Record<string, { argv: string[]; env?: Record<string, string> }>,
  runs: number,
): Promise<Record<string, number>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (const [name, { argv, env }] of Object.entries(commands)) {
      const [command, ...args] = argv;
      const t0 = performance.now();
      const child = spawn(command!, args, {
        stdio: ["pipe", "pipe", "ignore"],
        cwd: ROOT,
        env: { ...process.env, ...env },
      });
      child.stdin!.write(`${JSON.stringify({ ...INIT, id: 1 })}\n`);
      await new Promise((resolve) => child.stdout!.once("data", resolve));
      times[name]!.push(performance.now() - t0);
      child.kill();
      await new Promise((resolve) => child.once("exit", resolve));
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

const results: { transport: string; inflight: number; subject: string; figures: Figures }[] = [];
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;
for (const [transport, list] of Object.entries(subjects)) {
  if (only && !transport.toLowerCase().includes(only.toLowerCase())) continue;
  for (const inflight of [1, 32]) {
    const rounds = new Map<string, Figures[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const subject of list) {
        const channel = await subject.open(inflight);
        rounds.set(subject.name, [
          ...(rounds.get(subject.name) ?? []),
          await measure(channel, inflight, SECONDS),
        ]);
        await channel.close();
      }
    }
    for (const subject of list) {
      const all = rounds.get(subject.name)!;
      const figures = all.find((f) => f.rps === median(all.map((x) => x.rps)))!;
      results.push({ transport, inflight, subject: subject.name, figures });
      process.stderr.write(
        `${transport} ×${inflight} ${subject.name}: ${figures.rps.toFixed(0)}/s p50 ${figures.p50.toFixed(2)} p99 ${figures.p99.toFixed(2)} ms, ${figures.cpuPerCall?.toFixed(0) ?? "–"} µs CPU/call\n`,
      );
    }
  }
}
const cold = await coldStart(
  {
    "mcp-gen serve": { argv: [NODE, ...MCP_GEN] },
    "SDK McpServer (compiled JS)": { argv: [NODE, path.join(import.meta.dirname, "sdk-cold.mjs")] },
    "bare node": { argv: [NODE, "-e", "process.stdin.once('data',()=>process.stdout.write('{}\\n'))"] },
  },
  arg("cold-runs", 10),
);

const lines = [
  "| transport | in flight | server | calls/s | p50 ms | p99 ms | × SDK calls/s | server CPU µs/call | SDK CPU ÷ this |",
  "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
];
for (const r of results) {
  const sdk = results.find(
    (s) => s.transport === r.transport && s.inflight === r.inflight && s.subject.startsWith("SDK"),
  )!;
  lines.push(
    `| ${r.transport} | ${r.inflight} | ${r.subject} | ${r.figures.rps.toFixed(0)} | ${r.figures.p50.toFixed(2)} | ${r.figures.p99.toFixed(2)} | ${(r.figures.rps / sdk.figures.rps).toFixed(2)} | ${r.figures.cpuPerCall?.toFixed(0) ?? "–"} | ${r.figures.cpuPerCall && sdk.figures.cpuPerCall ? (sdk.figures.cpuPerCall / r.figures.cpuPerCall).toFixed(2) : "–"} |`,
  );
}
lines.push("", "| cold start (spawn → initialize answered) | median ms |", "| --- | --- |");
for (const [name, ms] of Object.entries(cold)) lines.push(`| ${name} | ${ms.toFixed(0)} |`);
process.stdout.write(`${lines.join("\n")}\n`);
mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
writeFileSync(path.join(ROOT, "bench/results/server.json"), JSON.stringify({ results, cold }, null, 2));
