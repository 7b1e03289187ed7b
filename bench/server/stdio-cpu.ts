/**
 * CPU per call of stdio servers, interleaved: each round opens every server in turn (starting
 * with a different one each round), warms it up (2,000 calls), then times `--calls` tool calls
 * with `--inflight` in flight and reads the CPU the server process spent (/proc, user + system)
 * and the CPU this client spent (`process.cpuUsage`).
 * Prints the median of the rounds and every round. The servers:
 * - `mcp-gen`: `mcp-gen serve smart-home` (the CLI);
 * - `SDK McpServer` (`sdk-server.ts`) and `floor` (`sdk-floor-server.ts`), as in `run.ts`;
 * - `floor + tool` (`sdk-floor-server.ts stdio tool`): the floor running the tool for every call.
 *   node --import tsx/esm bench/server/stdio-cpu.ts [--era 2026|2025] [--inflight 32]
 *   [--calls 10000] [--rounds 5] [--only name,name] [--base <checkout>]
 * `--base`: another built checkout (its own `node_modules/@mcp-gen/*` linking its packages),
 * served as `mcp-gen before` from its own folder, interleaved with the others (before/after).
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { stdioChannel } from "./channels.ts";
import { checkCall, type Era, openCalls, option } from "./protocol.ts";

const ROOT = path.join(import.meta.dirname, "../..");
const ERA = option("era", "2026") as Era;
const INFLIGHT = Number(option("inflight", "32"));
const CALLS = Number(option("calls", "10000"));
const ROUNDS = Number(option("rounds", "5"));
const ONLY = option("only", "").split(",").filter(Boolean);
const TSX = ["--import", "tsx/esm"];
const here = (file: string) => path.join(import.meta.dirname, file);
const BASE = option("base", "");
const SERVERS: Record<string, string[]> = {
  ...(BASE
    ? { "mcp-gen before": [path.join(BASE, "packages/codegen/bin/mcp-gen.js"), "serve", "smart-home"] }
    : {}),
  "mcp-gen": [path.join(ROOT, "packages/codegen/bin/mcp-gen.js"), "serve", "smart-home"],
  "SDK McpServer": [...TSX, here("sdk-server.ts"), "stdio"],
  floor: [...TSX, here("sdk-floor-server.ts"), "stdio"],
  "floor + tool": [...TSX, here("sdk-floor-server.ts"), "stdio", "tool"],
};

function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Round {
  server: number;
  client: number;
  rps: number;
}
const rounds = new Map<string, Round[]>();
const entries = Object.entries(SERVERS);
for (let round = 0; round < ROUNDS; round++) {
  // A different server opens each round (none always follows the same one, or goes first).
  const order = entries.map((_, i) => entries[(i + round) % entries.length]!);
  for (const [name, args] of order) {
    if (ONLY.length > 0 && !ONLY.includes(name)) continue;
    const channel = stdioChannel(process.execPath, args, name === "mcp-gen before" ? BASE : undefined);
    const pid = channel.child.pid!;
    const driver = await openCalls(channel, ERA, INFLIGHT);
    await driver.calls(2000);
    const server0 = cpuMs(pid);
    const client0 = process.cpuUsage();
    const t0 = performance.now();
    await driver.calls(CALLS);
    const seconds = (performance.now() - t0) / 1000;
    const client = process.cpuUsage(client0);
    const server = cpuMs(pid) - server0;
    checkCall(ERA, await driver.one());
    await channel.close();
    rounds.set(name, [
      ...(rounds.get(name) ?? []),
      {
        server: (server * 1000) / CALLS,
        client: (client.user + client.system) / CALLS,
        rps: CALLS / seconds,
      },
    ]);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(" ");
console.log(
  `Node ${process.version}, era ${ERA}, ${INFLIGHT} in flight, ${CALLS} calls × ${ROUNDS} rounds, load average at the end ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
console.log("| server | server CPU µs/call | client CPU µs/call | calls/s | rounds: server CPU / calls/s |");
console.log("| --- | ---: | ---: | ---: | --- |");
for (const [name, all] of rounds) {
  const server = all.map((r) => r.server);
  const rps = all.map((r) => r.rps);
  console.log(
    `| ${name} | ${median(server).toFixed(0)} | ${median(all.map((r) => r.client)).toFixed(0)} | ${median(rps).toFixed(0)} | ${list(server)} / ${list(rps)} |`,
  );
}
process.exit(0);
