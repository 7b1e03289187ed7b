/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): time per build phase (the innermost
 * phase function on each sample's stack) and the functions with the most self time.
 *
 * Library: `summariseProfile(file)`; CLI: `npx tsx bench/profile-summary.ts <file.cpuprofile> [--top 25]`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Phases of `mcp-gen build`, each recognised by the functions that run it (innermost match wins). */
export const PHASES: readonly { phase: string; functions: readonly string[]; url?: RegExp }[] = [
  { phase: "config load (tsx import of the config)", functions: ["loadConfig"] },
  {
    phase: "TypeScript: program creation (read, parse, resolve)",
    functions: ["createProject", "getProgram", "createProgram", "findSourceFile", "createSourceFile"],
  },
  { phase: "TypeScript: bind", functions: ["bindSourceFile"], url: /typescript/ },
  { phase: "TypeScript: type-check of the tool modules", functions: ["typeErrors", "checkSourceFileWorker"] },
  { phase: "extraction (checker queries → IR)", functions: ["extractModuleTools"] },
  { phase: "contract (IR → JSON Schema, serialise)", functions: ["contractFromIr", "serializeContract"] },
  { phase: "Ajv compile", functions: ["validateSchema", "addSchema", "getSchema", "compile"], url: /ajv/ },
  { phase: "Ajv standalone code", functions: ["standaloneCode", "esmImports"] },
  { phase: "Ajv compile", functions: ["emitValidators"] },
  { phase: "types emit", functions: ["emitTypes"] },
  { phase: "other emitters (tools.ts, index.ts, server.ts …)", functions: ["emitServer", "runEmitJob"] },
  { phase: "write / check (compare, atomic write)", functions: ["writeOutputs", "findStale"] },
  { phase: "diagnostics printing", functions: ["printDiagnostics"] },
];

export interface ProfileSummary {
  totalMs: number;
  phases: { phase: string; ms: number }[];
  top: { name: string; where: string; selfMs: number }[];
}

/** Reads a `.cpuprofile` and returns time per phase and the top self-time functions. */
export function summariseProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const phaseOf = new Map<number, string>();
  const phaseFor = (id: number): string => {
    const known = phaseOf.get(id);
    if (known) return known;
    const frame = byId.get(id)!.callFrame;
    const match = PHASES.find(
      (p) => p.functions.includes(frame.functionName) && (!p.url || p.url.test(frame.url)),
    );
    const up = parent.get(id);
    const result = match
      ? match.phase
      : up === undefined
        ? kindOf(frame)
        : phaseFor(up) === "other"
          ? kindOf(frame)
          : phaseFor(up);
    phaseOf.set(id, result);
    return result;
  };
  const phaseMs = new Map<string, number>();
  const selfMs = new Map<string, { name: string; where: string; selfMs: number }>();
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const phase = phaseFor(id);
    phaseMs.set(phase, (phaseMs.get(phase) ?? 0) + ms);
    const frame = byId.get(id)!.callFrame;
    const where = `${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    const key = `${frame.functionName}@${where}`;
    const entry = selfMs.get(key) ?? { name: frame.functionName || "(anonymous)", where, selfMs: 0 };
    entry.selfMs += ms;
    selfMs.set(key, entry);
  });
  return {
    totalMs: (profile.endTime - profile.startTime) / 1000,
    phases: [...phaseMs].map(([phase, ms]) => ({ phase, ms })).sort((a, b) => b.ms - a.ms),
    top: [...selfMs.values()].sort((a, b) => b.selfMs - a.selfMs).slice(0, top),
  };
}

/** Samples outside every phase: start-up (module loading through tsx), GC, idle. */
function kindOf(frame: CallFrame): string {
  if (frame.functionName === "(garbage collector)") return "garbage collection (outside phases)";
  if (frame.functionName === "(idle)") return "idle (waiting for I/O)";
  return "other";
}

function shortUrl(url: string): string {
  const i = url.indexOf("node_modules/");
  if (i >= 0) return url.slice(i + "node_modules/".length);
  const p = url.indexOf("packages/");
  return p >= 0 ? url.slice(p) : path.basename(url) || "(native)";
}

/** Renders a summary as Markdown tables. */
export function formatSummary(summary: ProfileSummary): string {
  const lines = [
    `profile: ${summary.totalMs.toFixed(0)} ms`,
    "",
    "| phase | ms | % |",
    "| --- | ---: | ---: |",
  ];
  for (const p of summary.phases) {
    const name = p.phase === "other" ? "start-up and other (module loading through tsx, CLI)" : p.phase;
    lines.push(`| ${name} | ${p.ms.toFixed(0)} | ${((100 * p.ms) / summary.totalMs).toFixed(1)} |`);
  }
  lines.push("", "| self time | ms | where |", "| --- | ---: | --- |");
  for (const t of summary.top) lines.push(`| ${t.name} | ${t.selfMs.toFixed(0)} | ${t.where} |`);
  return `${lines.join("\n")}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const topIndex = args.indexOf("--top");
  const top = topIndex >= 0 ? Number(args.splice(topIndex, 2)[1]) : 25;
  for (const file of args) process.stdout.write(`${file}\n${formatSummary(summariseProfile(file, top))}\n`);
}
