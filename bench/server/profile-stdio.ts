/**
 * Profiles the stdio servers of `run.ts` side by side on the same calls: each server (mcp-gen,
 * the SDK v2 `McpServer`, the floor `Server`) runs under `node --cpu-prof`, driven by the same raw
 * JSON-RPC client (`stdioChannel`) for `--calls` tool calls with `--inflight` in flight, then its
 * stdin is closed so it exits and writes its profile. Prints CPU per call (from /proc, the whole
 * process) and, per server, where the samples go (by module) and the functions of most self time.
 *   node --import tsx/esm bench/server/profile-stdio.ts [--era 2025|2026] [--inflight 1]
 *   [--calls 20000] [--only mcp-gen|sdk|floor|floor-tool] [--top 25]
 * Profiles go to bench/results/profiles/<server>-<era>-<inflight>/ (open them in Chrome DevTools).
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { stdioChannel } from "./channels.ts";
import { checkCall, type Era, openCalls, option } from "./protocol.ts";

const ROOT = path.join(import.meta.dirname, "../..");
const ERA = option("era", "2026") as Era;
const INFLIGHT = Number(option("inflight", "1"));
const CALLS = Number(option("calls", "20000"));
const TOP = Number(option("top", "25"));
const ONLY = option("only", "");
const TSX = ["--import", "tsx/esm"];
const SERVERS: Record<string, string[]> = {
  "mcp-gen": [path.join(ROOT, "packages/codegen/bin/mcp-gen.js"), "serve", "smart-home"],
  sdk: [...TSX, path.join(import.meta.dirname, "sdk-server.ts"), "stdio"],
  floor: [...TSX, path.join(import.meta.dirname, "sdk-floor-server.ts"), "stdio"],
  "floor-tool": [...TSX, path.join(import.meta.dirname, "sdk-floor-server.ts"), "stdio", "tool"],
};

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** Where a sample's code comes from. */
function category(url: string, fn: string): string {
  if (fn === "(garbage collector)") return "garbage collection";
  if (fn === "(program)") return "(program: V8 outside JS)";
  if (url.includes("zod")) return "zod";
  if (url.includes("@modelcontextprotocol")) return "SDK";
  if (url.includes("packages/runtime")) return "mcp-gen runtime";
  if (url.includes("generated/")) return "generated validators";
  if (url.includes("examples/") || url.includes("bench/server")) return "the tool / the bench server";
  if (url.includes("tsx")) return "tsx";
  if (url.startsWith("node:")) return "node core";
  if (url === "") return "engine natives (JSON, Promise …)";
  return "other";
}

/** Sums the samples taken between `from` and `to` (µs of the monotonic clock, as V8 stamps them). */
function summarise(dir: string, calls: number, from: number, to: number): void {
  const file = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => path.join(dir, f))
    .sort((a, b) => readFileSync(b).length - readFileSync(a).length)[0]!;
  const p = JSON.parse(readFileSync(file, "utf8")) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
    startTime: number;
  };
  const self = new Map<number, number>();
  let at = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    at += p.timeDeltas[i] ?? 0;
    const delta = p.timeDeltas[i + 1] ?? 0;
    if (at >= from && at < to) self.set(p.samples[i]!, (self.get(p.samples[i]!) ?? 0) + delta);
  }
  const byCategory = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const n of p.nodes) {
    const t = self.get(n.id) ?? 0;
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === "(idle)") continue;
    busy += t;
    const c = category(url, functionName);
    byCategory.set(c, (byCategory.get(c) ?? 0) + t);
    const where = url ? `${url.split("/").slice(-2).join("/")}:${lineNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"} ${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + t);
  }
  const us = (t: number) => (t / calls).toFixed(1).padStart(6);
  console.log(`  sampled busy time: ${us(busy)} µs/call`);
  for (const [k, v] of [...byCategory].sort((a, b) => b[1] - a[1])) console.log(`  ${us(v)} µs  ${k}`);
  console.log(`  top ${TOP} functions by self time (µs/call):`);
  for (const [k, v] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP))
    console.log(`  ${us(v)}  ${k}`);
}

for (const [name, args] of Object.entries(SERVERS)) {
  if (ONLY && name !== ONLY) continue;
  const dir = path.join(ROOT, "bench/results/profiles", `${name}-${ERA}-${INFLIGHT}`);
  rmSync(dir, { recursive: true, force: true });
  const channel = stdioChannel(process.execPath, ["--cpu-prof", "--cpu-prof-dir", dir, ...args]);
  const pid = channel.child.pid!;
  const driver = await openCalls(channel, ERA, INFLIGHT);
  checkCall(ERA, await driver.one());
  // Warm-up: the optimising compiler settles before the counted calls.
  await driver.calls(2000);
  const before = cpuMs(pid);
  const from = Number(process.hrtime.bigint() / 1000n);
  await driver.calls(CALLS);
  const to = Number(process.hrtime.bigint() / 1000n);
  const seconds = (to - from) / 1e6;
  const cpu = cpuMs(pid) - before;
  checkCall(ERA, await driver.one());
  const exited = new Promise((resolve) => channel.child.once("exit", resolve));
  channel.child.stdin!.end();
  await exited;
  console.log(
    `${name} ${ERA} ×${INFLIGHT}: ${((cpu * 1000) / CALLS).toFixed(0)} µs CPU/call (the whole process, /proc), ${(CALLS / seconds).toFixed(0)} calls/s`,
  );
  summarise(dir, CALLS, from, to);
}
