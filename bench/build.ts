/**
 * Build benchmark: whole-process `mcp-gen build` (contract + validators + types) against
 * ts-json-schema-generator producing schemas alone for the same synthetic corpus, plus the
 * floors (tsc --noEmit with TypeScript 5.9, 6.0 and 7, a bare ts-morph getType() walk).
 * Every command is a fresh child process; the commands are interleaved run by run so that
 * load on the machine hits them alike. Reports medians of wall time, CPU time and peak RSS.
 *
 * Usage: npx tsx bench/build.ts [--sizes 100,1000] [--runs 5] [--only mcp-gen,tsjsg] [--baseline REV] [--import root|tags]
 * `--import tags` benchmarks a corpus whose tool modules import the tags from `@mcp-gen/runtime/tags`.
 * `--baseline REV` adds `mcp-gen build` as of git revision REV (its packages/codegen, extracted
 * under bench/results/), to compare an optimisation with its parent in one run.
 */
import { execSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BENCH_DIR, type Corpus, generateCorpus } from "./corpus-gen.ts";
import { median, type Sample, timeProcess } from "./installed/measure.ts";

const ROOT = path.dirname(BENCH_DIR);
const NODE = process.execPath;

interface Contender {
  id: string;
  label: string;
  /** Command and arguments; `prepare` runs before each (untimed). */
  command(corpus: Corpus, scratch: string): string[];
  prepare?(corpus: Corpus, scratch: string): void;
  /** Optional peers are skipped when not installed. */
  available?(): boolean;
  /** Extra environment variables of the command. */
  env?: Record<string, string>;
}

const mod = (p: string) => path.join(ROOT, "node_modules", p);

/** `mcp-gen build` with the CLI under `codegenDir`, into a fresh output folder each run. */
function mcpGen(id: string, label: string, codegenDir: string): Contender {
  return {
    id,
    label,
    prepare: (c) => {
      rmSync(path.join(c.root, "schemas"), { recursive: true, force: true });
      rmSync(path.join(c.root, "generated"), { recursive: true, force: true });
    },
    command: (c) => [NODE, path.join(codegenDir, "bin/mcp-gen.js"), "build", "--config", c.config],
  };
}

/**
 * Extracts packages/ as of `rev` under bench/results/; its own `@mcp-gen/*` packages are linked
 * in its node_modules, the other packages resolve from the repository's.
 */
function baseline(rev: string): Contender {
  const sha = execSync(`git rev-parse --short ${rev}`, { cwd: ROOT, encoding: "utf8" }).trim();
  const dir = path.join(BENCH_DIR, "results", `baseline-${sha}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "node_modules", "@mcp-gen"), { recursive: true });
  execSync(`git archive ${sha} packages | tar -x -C ${JSON.stringify(dir)}`, { cwd: ROOT });
  for (const name of readdirSync(path.join(dir, "packages"))) {
    symlinkSync(path.join(dir, "packages", name), path.join(dir, "node_modules", "@mcp-gen", name));
  }
  return mcpGen(`mcp-gen@${sha}`, `mcp-gen build as of ${sha}`, path.join(dir, "packages/codegen"));
}

export const CONTENDERS: readonly Contender[] = [
  mcpGen("mcp-gen", "mcp-gen build (contract + validators + types)", path.join(ROOT, "packages/codegen")),
  {
    id: "tsjsg",
    label: "ts-json-schema-generator 2.4.0 (schemas only)",
    command: (c, scratch) => [
      NODE,
      mod("ts-json-schema-generator/dist/ts-json-schema-generator.js"),
      "--path",
      path.join(c.root, "tools/*.ts"),
      "--type",
      "*",
      "--tsconfig",
      c.tsconfig,
      "-o",
      path.join(scratch, "tsjsg.json"),
    ],
  },
  {
    id: "tsc-5.9",
    label: "floor: tsc --noEmit, TypeScript 5.9 (JS)",
    command: (c) => [NODE, mod("ts-json-schema-generator/node_modules/typescript/bin/tsc"), "-p", c.tsconfig],
  },
  {
    id: "tsc-6.0-ts-morph",
    label: "floor: type-check with ts-morph's TypeScript 6.0 (JS)",
    command: (c) => [NODE, path.join(BENCH_DIR, "floors/tsc-ts-morph.mjs"), c.tsconfig],
  },
  {
    id: "tsc-7",
    label: "floor: tsc --noEmit, TypeScript 7 (native)",
    command: (c) => [NODE, mod("typescript/bin/tsc"), "-p", c.tsconfig],
  },
  {
    id: "ts-morph-walk",
    label: "floor: bare ts-morph walk, getType() on every parameter",
    command: (c) => [NODE, path.join(BENCH_DIR, "floors/ts-morph-walk.mjs"), c.tsconfig],
  },
];

export interface Row {
  id: string;
  label: string;
  runs: Sample[];
  wallMs: number;
  cpuMs?: number;
  peakRssMb?: number;
}

/** Benchmarks the contenders on one corpus: one warm-up each, then `runs` interleaved rounds. */
export function benchCorpus(corpus: Corpus, contenders: readonly Contender[], runs: number): Row[] {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-bench-"));
  const samples = new Map<string, Sample[]>(contenders.map((c) => [c.id, []]));
  try {
    for (let round = -1; round < runs; round++) {
      for (const c of contenders) {
        c.prepare?.(corpus, scratch);
        const sample = timeProcess(
          { argv: c.command(corpus, scratch), cwd: corpus.root, ...(c.env ? { env: c.env } : {}) },
          scratch,
        );
        if (round >= 0) samples.get(c.id)!.push(sample);
        process.stderr.write(
          `  ${round < 0 ? "warm-up" : `run ${round + 1}/${runs}`} ${c.id}: ${sample.wallMs.toFixed(0)} ms\n`,
        );
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return contenders.map((c) => {
    const list = samples.get(c.id)!;
    const row: Row = { id: c.id, label: c.label, runs: list, wallMs: median(list.map((s) => s.wallMs)) };
    if (list.every((s) => s.cpuMs !== undefined)) row.cpuMs = median(list.map((s) => s.cpuMs!));
    if (list.every((s) => s.peakRssMb !== undefined)) row.peakRssMb = median(list.map((s) => s.peakRssMb!));
    return row;
  });
}

/** A Markdown table of one corpus's results, with mcp-gen's ratio to ts-json-schema-generator. */
export function formatRows(tools: number, rows: readonly Row[], runs: number): string {
  const lines = [
    `N = ${tools} tools, median of ${runs} runs`,
    "",
    "| command | wall (s) | CPU user+sys (s) | peak RSS (MB) |",
    "| --- | ---: | ---: | ---: |",
  ];
  for (const r of rows) {
    const cpu = r.cpuMs === undefined ? "n/a" : (r.cpuMs / 1000).toFixed(2);
    const rss = r.peakRssMb === undefined ? "n/a" : r.peakRssMb.toFixed(0);
    lines.push(`| ${r.label} | ${(r.wallMs / 1000).toFixed(2)} | ${cpu} | ${rss} |`);
  }
  const peer = rows.find((r) => r.id === "tsjsg");
  for (const ours of rows.filter((r) => r.id === "mcp-gen")) {
    if (!peer) break;
    const cpu =
      ours.cpuMs !== undefined && peer.cpuMs !== undefined
        ? `, CPU ${(ours.cpuMs / peer.cpuMs).toFixed(2)}`
        : "";
    const which = ours.id === "mcp-gen" ? "mcp-gen" : "mcp-gen without start-up cache";
    lines.push(
      "",
      `${which} / ts-json-schema-generator: wall ${(ours.wallMs / peer.wallMs).toFixed(2)}${cpu}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

interface Args {
  sizes: number[];
  runs: number;
  only?: string[];
  baseline?: string;
  runtimeImport: "root" | "tags";
}

function parseArgs(argv: string[]): Args {
  const get = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const only = get("--only")?.split(",");
  const base = get("--baseline");
  return {
    ...(base ? { baseline: base } : {}),
    sizes: (get("--sizes") ?? "100,1000").split(",").map(Number),
    runs: Number(get("--runs") ?? 5),
    runtimeImport: get("--import") === "tags" ? "tags" : "root",
    ...(only ? { only } : {}),
  };
}

const IMPORTS = { root: "@mcp-gen/runtime", tags: "@mcp-gen/runtime/tags" };

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const selected = CONTENDERS.filter(
    (c) => (!args.only || args.only.includes(c.id)) && c.available?.() !== false,
  );
  const contenders = args.baseline ? [selected[0]!, baseline(args.baseline), ...selected.slice(1)] : selected;
  const cpus = os.cpus();
  const machine = `${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`;
  const out: string[] = [
    `machine: ${machine}`,
    `load average at start: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
    "",
  ];
  const results: Record<string, Row[]> = {};
  for (const tools of args.sizes) {
    process.stderr.write(`corpus N = ${tools}\n`);
    const corpus = generateCorpus({ tools, runtimeImport: args.runtimeImport });
    const rows = benchCorpus(corpus, contenders, args.runs);
    results[tools] = rows;
    out.push(
      formatRows(tools, rows, args.runs).replace(
        " tools,",
        ` tools importing ${IMPORTS[args.runtimeImport]},`,
      ),
    );
  }
  out.push(
    `load average at end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  const text = out.join("\n");
  process.stdout.write(`${text}\n`);
  const resultsDir = path.join(BENCH_DIR, "results");
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(path.join(resultsDir, "build.json"), `${JSON.stringify({ machine, results }, null, 2)}\n`);
  writeFileSync(path.join(resultsDir, "build.md"), `${text}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.join(BENCH_DIR, "build.ts")) await main();
