/**
 * Measurements of one command: a whole process under `/usr/bin/time` (wall, user + sys CPU of the
 * process and the children it waited for, peak RSS), or a server's cold start (spawn → the answer
 * to `initialize` (2025) or `server/discover` (2026-07-28) read on its stdout; CPU and peak RSS of
 * the server process at that moment, from /proc). Contenders are run in interleaved rounds: one warm-up each, then `runs` rounds, the order
 * rotated every round so that no contender always follows the same one.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { Table } from "./report.ts";

const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : undefined;

export interface Sample {
  wallMs: number;
  cpuMs?: number;
  peakRssMb?: number;
}

export interface Command {
  argv: string[];
  cwd: string;
  env?: Record<string, string>;
}

/** Runs a command to its end; throws when it fails. `onStderr` sees what it wrote to stderr. */
export function timeProcess(command: Command, scratch: string, onStderr?: (text: string) => void): Sample {
  const timeFile = path.join(scratch, "time.txt");
  const [file, ...args] = TIME ? [TIME, "-f", "%U %S %M", "-o", timeFile, ...command.argv] : command.argv;
  const start = performance.now();
  const child = spawnSync(file!, args, {
    cwd: command.cwd,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, ...command.env },
  });
  const wallMs = performance.now() - start;
  if (child.status !== 0) {
    throw new Error(
      `${command.argv.join(" ")} exited ${child.status}:\n${child.stdout}\n${child.stderr.slice(-4000)}`,
    );
  }
  onStderr?.(child.stderr);
  if (!TIME) return { wallMs };
  const last = readFileSync(timeFile, "utf8").trim().split("\n").at(-1) ?? "";
  const [user, sys, rssKb] = last.split(" ").map(Number);
  return { wallMs, cpuMs: ((user ?? 0) + (sys ?? 0)) * 1000, peakRssMb: (rssKb ?? 0) / 1024 };
}

/** CPU time (user + sys, all threads, 10 ms ticks) and peak RSS of a live process, from /proc. */
function procStats(pid: number): { cpuMs?: number; peakRssMb?: number } {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    const tick = 1000 / 100;
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return {
      cpuMs: (Number(fields[11]) + Number(fields[12])) * tick,
      ...(hwm ? { peakRssMb: Number(hwm[1]) / 1024 } : {}),
    };
  } catch {
    return {};
  }
}

const CLIENT_INFO = { name: "bench", version: "1" };

/** The first request a client sends a server in one protocol era, and what its answer must show. */
export interface Opening {
  era: "2025" | "2026";
  /** The request, id 1, as one line. */
  line: string;
  /** Why the result does not show the era (`undefined`: it does). */
  problem(result: Record<string, unknown>): string | undefined;
}

/** 2025: `initialize` (2025-11-25); 2026: `server/discover` with the 2026-07-28 `_meta` envelope. */
export const OPENINGS: Record<Opening["era"], Opening> = {
  "2025": {
    era: "2025",
    line: `${JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: CLIENT_INFO },
    })}\n`,
    problem: (result) =>
      typeof result.protocolVersion === "string" && result.protocolVersion.startsWith("2025-")
        ? undefined
        : `initialize answered protocolVersion ${JSON.stringify(result.protocolVersion)}`,
  },
  "2026": {
    era: "2026",
    line: `${JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "server/discover",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    })}\n`,
    problem: (result) =>
      Array.isArray(result.supportedVersions) && result.supportedVersions.includes("2026-07-28")
        ? undefined
        : `server/discover answered without 2026-07-28: ${JSON.stringify(result).slice(0, 300)}`,
  },
};

/**
 * Spawn → the answer to the era's opening request (a JSON-RPC result with id 1) read on stdout;
 * `check` off accepts any result (the floor answers `{}`).
 */
export async function coldStart(
  command: Command,
  opening: Opening = OPENINGS["2025"],
  { timeoutMs = 60_000, check = true }: { timeoutMs?: number; check?: boolean } = {},
): Promise<Sample> {
  const [file, ...args] = command.argv;
  const start = performance.now();
  const child = spawn(file!, args, { cwd: command.cwd, env: { ...process.env, ...command.env } });
  child.stdin.on("error", () => {}); // EPIPE when the child dies first: reported by "exit" below
  child.stdin.write(opening.line);
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    return await new Promise<Sample>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs);
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`exited ${code} before answering:\n${stderr.slice(-2000)}`));
      });
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        const line = stdout
          .split("\n")
          .slice(0, -1) // complete lines only
          .find((l) => l.includes('"id":1'));
        if (!line) return;
        const wallMs = performance.now() - start;
        const stats = procStats(child.pid!);
        clearTimeout(timer);
        const { result } = JSON.parse(line) as { result?: Record<string, unknown> };
        const problem = !result ? "no result" : check ? opening.problem(result) : undefined;
        if (problem) reject(new Error(`${opening.line.trim()} failed: ${problem}: ${line.slice(0, 500)}`));
        else resolve({ wallMs, ...stats });
      });
    });
  } finally {
    child.kill("SIGKILL");
    await exited;
  }
}

export interface Contender {
  id: string;
  /** Untimed, before every run (e.g. empty the output folders). */
  prepare?(): void;
  run(): Promise<Sample> | Sample;
}

/** One warm-up run of each contender, then `runs` rounds; the samples of the rounds by id. */
export async function interleave(
  contenders: readonly Contender[],
  runs: number,
  title: string,
): Promise<Map<string, Sample[]>> {
  const samples = new Map<string, Sample[]>(contenders.map((c) => [c.id, []]));
  for (let round = -1; round < runs; round++) {
    const shift = Math.max(round, 0) % contenders.length;
    for (const c of [...contenders.slice(shift), ...contenders.slice(0, shift)]) {
      c.prepare?.();
      const sample = await c.run();
      if (round >= 0) samples.get(c.id)!.push(sample);
      const load = os.loadavg()[0]!.toFixed(1);
      process.stderr.write(
        `  ${title} ${round < 0 ? "warm-up" : `run ${round + 1}/${runs}`} ${c.id}: ${sample.wallMs.toFixed(0)} ms (load ${load})\n`,
      );
    }
  }
  return samples;
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export interface Row {
  id: string;
  label: string;
  /** The row this one's ratio is taken against (its peer); none for the peers themselves. */
  peer?: string;
  runs: Sample[];
  wallMs: number;
  cpuMs?: number;
  peakRssMb?: number;
}

export function summarise(id: string, label: string, runs: Sample[], peer?: string): Row {
  const row: Row = { id, label, runs, wallMs: median(runs.map((s) => s.wallMs)), ...(peer ? { peer } : {}) };
  if (runs.every((s) => s.cpuMs !== undefined)) row.cpuMs = median(runs.map((s) => s.cpuMs!));
  if (runs.every((s) => s.peakRssMb !== undefined)) row.peakRssMb = median(runs.map((s) => s.peakRssMb!));
  return row;
}

/** A contender of a table: its label, and the id of the row its ratio is taken against. */
export type TableContender = Contender & { label: string; peer?: string };

const loadavg = () => os.loadavg().map((l) => Number(l.toFixed(2)));

/** Runs the contenders of one table (interleaved) and summarises them, with the load average. */
export async function measureTable(
  title: string,
  unit: "s" | "ms",
  notes: string[],
  list: TableContender[],
  runs: number,
): Promise<Table> {
  process.stderr.write(`${title}\n`);
  const loadStart = loadavg();
  const samples = await interleave(list, runs, title.split(" (")[0]!);
  const rows = list.map((c) => summarise(c.id, c.label, samples.get(c.id)!, c.peer));
  return { title, unit, notes, loadStart, loadEnd: loadavg(), rows };
}
