/**
 * In-process phase timings of `mcp-gen build` on a corpus: the library functions the CLI calls,
 * each timed on its own (start-up and module loading excluded). Complements `node --cpu-prof`.
 *
 * Usage: npx tsx bench/phases.ts [N=1000]
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { loadConfig } from "../packages/codegen/src/config/load.ts";
import { contractFromIr } from "../packages/codegen/src/contract/from-ir.ts";
import { serializeContract } from "../packages/codegen/src/contract/read.ts";
import type { EmitContext } from "../packages/codegen/src/emit/context.ts";
import { emitServer } from "../packages/codegen/src/emit/index.ts";
import { emitIndex } from "../packages/codegen/src/emit/index-file.ts";
import { emitToolsFile } from "../packages/codegen/src/emit/tools-file.ts";
import { emitTypes } from "../packages/codegen/src/emit/types.ts";
import { emitValidators } from "../packages/codegen/src/emit/validators.ts";
import { extract } from "../packages/codegen/src/extract/index.ts";
import { BENCH_DIR, generateCorpus } from "./corpus-gen.ts";

/** Wall and CPU milliseconds per phase (CPU time is steadier on a shared machine). */
const timings = new Map<string, { wall: number; cpu: number }>();
function add(phase: string, wall: number, cpu: NodeJS.CpuUsage): void {
  const t = timings.get(phase) ?? { wall: 0, cpu: 0 };
  timings.set(phase, { wall: t.wall + wall, cpu: t.cpu + (cpu.user + cpu.system) / 1000 });
}
async function timed<T>(phase: string, body: () => T | Promise<T>): Promise<T> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  try {
    return await body();
  } finally {
    add(phase, performance.now() - start, process.cpuUsage(cpu));
  }
}

const tools = Number(process.argv[2] ?? 1000);
const corpus = generateCorpus({ tools, out: path.join(BENCH_DIR, "corpus", `${tools}-phases`) });
const start = performance.now();
const config = await timed("config load", () => loadConfig({ configFile: corpus.config }));
const { servers } = await timed("extract (program, type-check, IR)", () => extract(config));
for (const server of servers) {
  const contract = await timed("contract from IR", () => contractFromIr(server));
  await timed("contract serialise", () => serializeContract(contract));
  const ctx: EmitContext = {
    contract,
    contractFile: `schemas/${server.name}.tools.json`,
    outDir: `generated/${server.name}`,
    warnings: [],
    importExtension: ".ts",
  };
  await timed("emit validators (Ajv compile + standalone)", () => emitValidators(ctx));
  await timed("emit types", () => emitTypes(ctx));
  await timed("emit tools.ts", () => emitToolsFile(ctx));
  await timed("emit index.ts", () => emitIndex(ctx));
}
const jobs = servers.map((server) => ({
  contract: contractFromIr(server),
  contractFile: `schemas/${server.name}.tools.json`,
  outDir: `generated/${server.name}`,
  targets: config.targets,
}));
await timed("all servers: emitServer one after another", () => jobs.map((j) => emitServer(j.contract, j)));
const total = performance.now() - start;
process.stdout.write(`N = ${tools}: ${total.toFixed(0)} ms in process\n`);
process.stdout.write(`  ${"phase".padEnd(44)} ${"wall ms".padStart(8)} ${"CPU ms".padStart(8)}\n`);
for (const [phase, t] of timings) {
  process.stdout.write(
    `  ${phase.padEnd(44)} ${t.wall.toFixed(0).padStart(8)} ${t.cpu.toFixed(0).padStart(8)}\n`,
  );
}
