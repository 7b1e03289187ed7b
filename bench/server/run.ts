/**
 * Server benchmark: tools/call throughput, latency and server CPU per call of `mcp-gen serve`
 * against the official SDK v2's own `McpServer` (same tool, zod 4 schemas; `serveStdio` /
 * `createMcpHandler`) and a bare ceiling, in both protocol eras (2025-11-25 and 2026-07-28), in
 * memory, over stdio and over Streamable HTTP, with 1 and 32 calls in flight; then cold start
 * (spawn → `initialize` or `server/discover` answered) in both eras.
 *   node --import tsx/esm bench/server/run.ts [--seconds 3] [--rounds 3] [--cold-runs 10]
 *   [--only memory|stdio|http|cold] [--era 2025|2026] [--inflight 1,32]
 *   [--base <other checkout>/packages/codegen/bin/mcp-gen.js]
 * (`--base` adds that build of `mcp-gen serve` as one more subject over stdio and HTTP, interleaved
 * with this one: a before/after comparison on the same load.)
 * (`--only` names a transport; `cold`, which names none, runs only the cold starts.)
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { serve } from "@mcp-gen/runtime/server";
import { InMemoryTransport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { manifest } from "../../generated/smart-home/server.ts";
import { type Channel, httpChannel, memoryChannel, startHttp, stdioChannel } from "./channels.ts";
import {
  checkCall,
  checkOpening,
  ERAS,
  type Era,
  eraHeaders,
  INITIALIZED,
  opening,
  PROTOCOL_VERSION,
  toolCall,
} from "./protocol.ts";
import { createSdkServer } from "./sdk-server.ts";

const ROOT = path.join(import.meta.dirname, "../..");
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
};
const SECONDS = arg("seconds", 3);
const ROUNDS = arg("rounds", 3);
const COLD_RUNS = arg("cold-runs", 10);
const ONLY = option("only");
/** Calls in flight of the per-call rows (`--inflight 32` or `--inflight 1,32`). */
const INFLIGHT = (option("inflight") ?? "1,32").split(",").map(Number);
const eras: readonly Era[] = option("era") ? [option("era") as Era] : ERAS;
if (!eras.every((e) => ERAS.includes(e))) throw new Error(`--era takes ${ERAS.join(" or ")}`);
const NODE = process.execPath;
const TSX = ["--import", "tsx/esm"];
const MCP_GEN = [path.join(ROOT, "packages/codegen/bin/mcp-gen.js"), "serve", "smart-home"];
const BASE = option("base");
const MCP_GEN_BASE = BASE ? [path.resolve(BASE), "serve", "smart-home"] : undefined;
const SDK = [...TSX, path.join(import.meta.dirname, "sdk-server.ts")];
const FLOOR = [...TSX, path.join(import.meta.dirname, "sdk-floor-server.ts")];
const BARE = path.join(import.meta.dirname, "bare.mjs");
/** Whether this Node strips types itself (22.18+), so that `mcp-gen serve` loads TypeScript without tsx. */
const STRIPPING = Boolean((process.features as { typescript?: string | false }).typescript);

let nextId = 1;

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

type Open = Channel & { pid?: number };

/**
 * Opens a connection in an era: `initialize` + `notifications/initialized` (2025) or
 * `server/discover` (2026), the reply checked for that era unless `check` is off (bare ceilings).
 */
async function handshake(channel: Channel, era: Era, check: boolean): Promise<void> {
  const reply = await channel.call(opening(era, 0));
  if (check) checkOpening(era, reply);
  if (era === "2025") await channel.notify(INITIALIZED);
}

/** A closed loop of `inflight` callers for `seconds`, after a warm-up; latencies in ms. */
async function measure(channel: Open, era: Era, check: boolean, inflight: number): Promise<Figures> {
  const first = await channel.call(toolCall(era, nextId++));
  if (check) checkCall(era, first);
  else if (!(first as { result?: unknown }).result) throw new Error(`bad reply ${JSON.stringify(first)}`);
  const run = async (until: number, latencies?: number[]) => {
    let done = 0;
    await Promise.all(
      Array.from({ length: inflight }, async () => {
        while (performance.now() < until) {
          const t0 = performance.now();
          await channel.call(toolCall(era, nextId++));
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
  const done = await run(start + SECONDS * 1000, latencies);
  const elapsed = (performance.now() - start) / 1000;
  const cpuAfter = channel.pid ? cpuMs(channel.pid) : undefined;
  // The last reply of the run is checked too: the era held for the whole run.
  const last = await channel.call(toolCall(era, nextId++));
  if (check) checkCall(era, last);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  const figures: Figures = { rps: done / elapsed, p50: at(0.5), p99: at(0.99) };
  if (cpuBefore !== undefined && cpuAfter !== undefined)
    figures.cpuPerCall = ((cpuAfter - cpuBefore) * 1000) / done;
  return figures;
}

interface Subject {
  /** The row's name, or its name in each era. */
  name: string | Record<Era, string>;
  /** The SDK baseline of its transport and era (the ratios' denominator). */
  sdk?: true;
  /** Off for the bare ceilings, which answer every request with one fixed result. */
  check: boolean;
  /** The eras this subject runs in (default: both). */
  eras?: readonly Era[];
  open(era: Era, inflight: number): Promise<Open>;
}

async function stdioOpen(command: string, args: string[], era: Era, check: boolean): Promise<Open> {
  const channel = stdioChannel(command, args);
  await handshake(channel, era, check);
  return { ...channel, pid: channel.child.pid! };
}

/** `sessions`: whether the server must hand out a session id (mcp-gen's default 2025 HTTP). */
async function httpOpen(
  [command, ...args]: string[],
  era: Era,
  sockets: number,
  check: boolean,
  sessions = false,
): Promise<Open> {
  const { url, child } = await startHttp(command!, args);
  const channel = httpChannel(url, sockets, (message) => eraHeaders(era, message));
  await handshake(channel, era, check);
  if (check && (channel.session !== undefined) !== sessions) {
    child.kill();
    throw new Error(
      `${args.join(" ")}: session id ${channel.session ?? "none"}, expected ${sessions ? "one" : "none"}`,
    );
  }
  return {
    call: channel.call,
    notify: channel.notify,
    pid: child.pid!,
    close: async () => {
      await channel.close();
      child.kill();
    },
  };
}

const subjects: Record<string, Subject[]> = {
  "in-memory": [
    {
      name: "mcp-gen",
      check: true,
      async open(era) {
        const [client, server] = InMemoryTransport.createLinkedPair();
        const running = await serve(manifest, { transport: server });
        const channel = await memoryChannel(client);
        await handshake(channel, era, true);
        return { ...channel, close: () => running.close() };
      },
    },
    {
      name: "SDK v2 McpServer",
      sdk: true,
      check: true,
      async open(era) {
        const [client, server] = InMemoryTransport.createLinkedPair();
        const handle = serveStdio(createSdkServer, { transport: server });
        const channel = await memoryChannel(client);
        await handshake(channel, era, true);
        return { ...channel, close: () => handle.close() };
      },
    },
  ],
  stdio: [
    { name: "mcp-gen", check: true, open: (era) => stdioOpen(NODE, MCP_GEN, era, true) },
    ...(MCP_GEN_BASE
      ? [
          {
            name: "mcp-gen (base)",
            check: true,
            open: (era: Era) => stdioOpen(NODE, MCP_GEN_BASE, era, true),
          },
        ]
      : []),
    {
      name: "SDK v2 McpServer (serveStdio)",
      sdk: true,
      check: true,
      open: (era) => stdioOpen(NODE, [...SDK, "stdio"], era, true),
    },
    {
      name: "floor: low-level SDK `Server`, fixed result (serveStdio)",
      check: true,
      open: (era) => stdioOpen(NODE, [...FLOOR, "stdio"], era, true),
    },
    { name: "bare JSON-RPC loop", check: false, open: (era) => stdioOpen(NODE, [BARE, "stdio"], era, false) },
  ],
  "Streamable HTTP": [
    {
      // 2025: mcp-gen's default, a session per client; 2026-07-28 has no sessions.
      name: { "2025": "mcp-gen (sessions)", "2026": "mcp-gen" },
      check: true,
      open: (era, n) => httpOpen([NODE, ...MCP_GEN, "--http", "--port", "0"], era, n, true, era === "2025"),
    },
    ...(MCP_GEN_BASE
      ? [
          {
            name: { "2025": "mcp-gen (base, sessions)", "2026": "mcp-gen (base)" },
            check: true,
            open: (era: Era, n: number) =>
              httpOpen([NODE, ...MCP_GEN_BASE, "--http", "--port", "0"], era, n, true, era === "2025"),
          },
        ]
      : []),
    {
      name: "mcp-gen --stateless",
      check: true,
      eras: ["2025"],
      open: (era, n) => httpOpen([NODE, ...MCP_GEN, "--http", "--port", "0", "--stateless"], era, n, true),
    },
    {
      name: "SDK v2 McpServer (createMcpHandler)",
      sdk: true,
      check: true,
      open: (era, n) => httpOpen([NODE, ...SDK, "http", "0"], era, n, true),
    },
    {
      name: "floor: low-level SDK `Server`, fixed result (createMcpHandler)",
      check: true,
      open: (era, n) => httpOpen([NODE, ...FLOOR, "http", "0"], era, n, true),
    },
    { name: "bare node:http", check: false, open: (era, n) => httpOpen([NODE, BARE, "http"], era, n, false) },
  ],
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface ColdCommand {
  argv: string[];
  env?: Record<string, string>;
  /** Off for bare `node`, which answers whatever line it reads with `{}`. */
  check: boolean;
}

/** Spawn → the opening of `era` answered, in ms (median); runs alternate between the commands. */
async function coldStart(
  era: Era,
  commands: Record<string, ColdCommand>,
  runs: number,
): Promise<Record<string, number>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  const line = `${JSON.stringify(opening(era, 1))}\n`;
  for (let i = 0; i < runs; i++) {
    for (const [name, { argv, env, check }] of Object.entries(commands)) {
      const [command, ...args] = argv;
      const t0 = performance.now();
      const child = spawn(command!, args, {
        stdio: ["pipe", "pipe", "ignore"],
        cwd: ROOT,
        env: { ...process.env, ...env },
      });
      child.stdin!.write(line);
      const reply = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
          out += chunk;
          if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
        });
        child.once("exit", (code) => reject(new Error(`${name} exited ${code} before answering`)));
      });
      times[name]!.push(performance.now() - t0);
      child.kill();
      await new Promise((resolve) => child.once("exit", resolve));
      if (check) checkOpening(era, JSON.parse(reply));
    }
  }
  return Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
}

interface Result {
  transport: string;
  era: Era;
  inflight: number;
  subject: string;
  sdk: boolean;
  figures: Figures;
}
const results: Result[] = [];
for (const [transport, list] of Object.entries(subjects)) {
  if (ONLY && !transport.toLowerCase().includes(ONLY.toLowerCase())) continue;
  for (const era of eras) {
    const running = list.filter((s) => (s.eras ?? ERAS).includes(era));
    for (const inflight of INFLIGHT) {
      const rounds = new Map<Subject, Figures[]>();
      for (let round = 0; round < ROUNDS; round++) {
        for (const subject of running) {
          const channel = await subject.open(era, inflight);
          try {
            rounds.set(subject, [
              ...(rounds.get(subject) ?? []),
              await measure(channel, era, subject.check, inflight),
            ]);
          } finally {
            await channel.close();
          }
        }
      }
      for (const subject of running) {
        const all = rounds.get(subject)!;
        const figures = all.find((f) => f.rps === median(all.map((x) => x.rps)))!;
        const name = typeof subject.name === "string" ? subject.name : subject.name[era];
        results.push({ transport, era, inflight, subject: name, sdk: subject.sdk ?? false, figures });
        process.stderr.write(
          `${transport} ${PROTOCOL_VERSION[era]} ×${inflight} ${name}: ${figures.rps.toFixed(0)}/s p50 ${figures.p50.toFixed(2)} p99 ${figures.p99.toFixed(2)} ms, ${figures.cpuPerCall?.toFixed(0) ?? "–"} µs CPU/call (load ${os.loadavg()[0]!.toFixed(1)})\n`,
        );
      }
    }
  }
}

const cold: { era: Era; times: Record<string, number> }[] = [];
if (!ONLY || ONLY === "cold") {
  for (const era of eras) {
    const times = await coldStart(
      era,
      {
        ...(STRIPPING
          ? {
              "`mcp-gen serve smart-home` (CLI; TypeScript through Node's type stripping)": {
                argv: [NODE, ...MCP_GEN],
                check: true,
              },
            }
          : {
              "`mcp-gen serve smart-home` (CLI; TypeScript through tsx, its cache warm)": {
                argv: [NODE, ...MCP_GEN],
                check: true,
              },
              "`mcp-gen serve smart-home` (CLI; tsx with `TSX_DISABLE_CACHE=1`)": {
                argv: [NODE, ...MCP_GEN],
                env: { TSX_DISABLE_CACHE: "1" },
                check: true,
              },
            }),
        "SDK v2 `McpServer` + zod 4, compiled JavaScript (`sdk-cold.mjs`)": {
          argv: [NODE, path.join(import.meta.dirname, "sdk-cold.mjs")],
          check: true,
        },
        "floor: a low-level SDK v2 `Server` with no tools, `serveStdio` (`sdk-minimal.mjs`)": {
          argv: [NODE, path.join(import.meta.dirname, "sdk-minimal.mjs")],
          check: true,
        },
        "floor: the SDK v2 server package imported, one line answered (`sdk-floor.mjs`)": {
          argv: [NODE, path.join(import.meta.dirname, "sdk-floor.mjs")],
          check: false,
        },
        "bare `node` answering one line": {
          argv: [NODE, "-e", "process.stdin.once('data',()=>process.stdout.write('{}\\n'))"],
          check: false,
        },
      },
      COLD_RUNS,
    );
    cold.push({ era, times });
    for (const [name, ms] of Object.entries(times))
      process.stderr.write(`cold ${PROTOCOL_VERSION[era]} ${name}: ${ms.toFixed(0)} ms\n`);
  }
}

const fixed = (x: number | undefined, digits: number) => (x === undefined ? "–" : x.toFixed(digits));
const load = os
  .loadavg()
  .map((l) => l.toFixed(1))
  .join(" ");
const lines = [
  [
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}`,
    ...(results.length > 0 ? [`${SECONDS} s × ${ROUNDS} rounds (median round)`] : []),
    ...(cold.length > 0 ? [`cold starts: median of ${COLD_RUNS}`] : []),
    `load average at the end ${load}`,
  ].join("; "),
];
if (results.length > 0) {
  lines.push(
    "",
    "| transport | era | in flight | server | calls/s | p50 ms | p99 ms | × SDK calls/s | server CPU µs/call | SDK CPU ÷ this |",
    "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
}
for (const r of results) {
  const sdk = results.find(
    (s) => s.transport === r.transport && s.era === r.era && s.inflight === r.inflight && s.sdk,
  )!;
  const cpuRatio =
    r.figures.cpuPerCall && sdk.figures.cpuPerCall
      ? sdk.figures.cpuPerCall / r.figures.cpuPerCall
      : undefined;
  lines.push(
    `| ${r.transport} | ${PROTOCOL_VERSION[r.era]} | ${r.inflight} | ${r.subject} | ${r.figures.rps.toFixed(0)} | ${r.figures.p50.toFixed(2)} | ${r.figures.p99.toFixed(2)} | ${(r.figures.rps / sdk.figures.rps).toFixed(2)} | ${fixed(r.figures.cpuPerCall, 0)} | ${fixed(cpuRatio, 2)} |`,
  );
}
if (cold.length > 0) {
  lines.push(
    "",
    "| cold start (spawn → opening answered: `initialize` 2025, `server/discover` 2026) | era | median ms | ÷ SDK |",
    "| --- | --- | ---: | ---: |",
  );
  for (const { era, times } of cold) {
    const sdk = Object.entries(times).find(([name]) => name.startsWith("SDK"))![1];
    for (const [name, ms] of Object.entries(times))
      lines.push(`| ${name} | ${PROTOCOL_VERSION[era]} | ${ms.toFixed(0)} | ${(ms / sdk).toFixed(2)} |`);
  }
}
process.stdout.write(`${lines.join("\n")}\n`);
mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
writeFileSync(
  path.join(ROOT, "bench/results/server.json"),
  JSON.stringify({ seconds: SECONDS, rounds: ROUNDS, coldRuns: COLD_RUNS, results, cold }, null, 2),
);
