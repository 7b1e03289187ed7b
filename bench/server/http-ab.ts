/**
 * HTTP 2026-07-28 calls/s and server CPU per call of `mcp-gen serve smart-home --http` against the
 * per-request floor (a do-nothing SDK `Server` built per request by `createMcpHandler`), in short
 * alternating bursts on servers started once: on a loaded machine the ratio of two adjacent bursts
 * moves far less than two runs a minute apart (what `run.ts` compares). `--base` adds another
 * build of mcp-gen (a before/after comparison).
 *   node --import tsx/esm bench/server/http-ab.ts [--seconds 1] [--rounds 10] [--inflight 32]
 *   [--base <other checkout>/packages/codegen/bin/mcp-gen.js] [--rounds-out]
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Channel, httpChannel, startHttp } from "./channels.ts";
import { checkCall, checkOpening, eraHeaders, opening, toolCall } from "./protocol.ts";

const option = (name: string, fallback: string | undefined) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const SECONDS = Number(option("seconds", "1"));
const ROUNDS = Number(option("rounds", "10"));
const INFLIGHT = Number(option("inflight", "32"));
const BASE = option("base", undefined);
const ROOT = path.join(import.meta.dirname, "../..");
const NODE = process.execPath;
const serveArgs = (bin: string) => [bin, "serve", "smart-home", "--http", "--port", "0"];
const subjects: [string, string[]][] = [
  ["mcp-gen", serveArgs(path.join(ROOT, "packages/codegen/bin/mcp-gen.js"))],
  ...(BASE ? [["mcp-gen (base)", serveArgs(path.resolve(BASE))] as [string, string[]]] : []),
  ["floor", ["--import", "tsx/esm", path.join(import.meta.dirname, "sdk-floor-server.ts"), "http", "0"]],
];

/** User + system CPU time of a process so far, in ms (Linux /proc; clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

let nextId = 1;
/** `INFLIGHT` closed-loop callers for `seconds`; the calls answered. */
async function burst(channel: Channel, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: INFLIGHT }, async () => {
      while (performance.now() < until) {
        await channel.call(toolCall("2026", nextId++));
        done++;
      }
    }),
  );
  return done;
}

const open = await Promise.all(
  subjects.map(async ([name, args]) => {
    const { url, child } = await startHttp(NODE, args);
    const channel = httpChannel(url, INFLIGHT, (message) => eraHeaders("2026", message));
    checkOpening("2026", await channel.call(opening("2026", 0)));
    checkCall("2026", await channel.call(toolCall("2026", nextId++)));
    await burst(channel, 1);
    return { name, channel, child, rounds: [] as { rps: number; cpu: number }[] };
  }),
);
for (let round = 0; round < ROUNDS; round++) {
  // A different subject goes first each round.
  for (let k = 0; k < open.length; k++) {
    const subject = open[(round + k) % open.length]!;
    const cpu0 = cpuMs(subject.child.pid!);
    const t0 = performance.now();
    const calls = await burst(subject.channel, SECONDS);
    const elapsed = (performance.now() - t0) / 1000;
    subject.rounds.push({ rps: calls / elapsed, cpu: ((cpuMs(subject.child.pid!) - cpu0) * 1000) / calls });
  }
  checkCall("2026", await open[0]!.channel.call(toolCall("2026", nextId++)));
}
for (const { channel, child } of open) {
  await channel.close();
  child.kill();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const floor = open.at(-1)!;
const lines = [
  `Node ${process.version}, ${INFLIGHT} in flight, ${ROUNDS} rounds × ${SECONDS} s per subject, load average at the end ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
  "",
  "| server | calls/s (median round) | ÷ floor (median of rounds) | CPU µs/call (median round) | floor CPU ÷ this (median of rounds) |",
  "| --- | ---: | ---: | ---: | ---: |",
  ...open.map(({ name, rounds }) => {
    const rps = median(rounds.map((r, i) => r.rps / floor.rounds[i]!.rps));
    const cpu = median(rounds.map((r, i) => floor.rounds[i]!.cpu / r.cpu));
    return `| ${name} | ${median(rounds.map((r) => r.rps)).toFixed(0)} | ${rps.toFixed(2)} | ${median(rounds.map((r) => r.cpu)).toFixed(0)} | ${cpu.toFixed(2)} |`;
  }),
];
process.stdout.write(`${lines.join("\n")}\n`);
if (process.argv.includes("--rounds-out")) {
  for (const { name, rounds } of open)
    process.stdout.write(
      `${name}: ${rounds.map((r) => `${r.rps.toFixed(0)}/s ${r.cpu.toFixed(0)}µs`).join(", ")}\n`,
    );
}
