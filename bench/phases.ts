/**
 * In-process CPU and wall time of each step of `mcp-gen build` on any project, emitter by emitter,
 * with the compiled packages (`dist/`, as users run them): module loading, config, extraction,
 * contracts, then every emitter of `EMITTERS` summed over the servers, plus garbage collection and
 * peak RSS. Nothing is written. GC is the pause time of V8's `gc` entries, minor (scavenges) and
 * major apart: wall time of the main thread, so it swells on a loaded machine like any wall time
 * (V8's helper threads add CPU of their own that no entry reports).
 *
 * Usage: `<node> [--expose-gc] --import tsx bench/phases.ts <mcp-gen.config.ts> [--json] [--heap]`;
 * `--heap` prints, after each step, the heap used, what a full GC leaves of it (with `--expose-gc`)
 * and the RSS. Run it a few times, interleaved with what it is compared against (CPU per step moves
 * by 10-20 % on a busy machine).
 */

import path from "node:path";
import { constants, PerformanceObserver, performance } from "node:perf_hooks";

const configFile = path.resolve(process.argv[2] ?? "bench/corpus/distinct-1000/mcp-gen.config.ts");
const asJson = process.argv.includes("--json");
const heap = process.argv.includes("--heap");

const steps = new Map<string, { wall: number; cpu: number }>();
function add(step: string, wall: number, cpu: NodeJS.CpuUsage): void {
  const t = steps.get(step) ?? { wall: 0, cpu: 0 };
  steps.set(step, { wall: t.wall + wall, cpu: t.cpu + (cpu.user + cpu.system) / 1000 });
  if (heap) {
    const mb = (n: number) => (n / 1048576).toFixed(0);
    const g = globalThis as { gc?: () => void };
    const used = process.memoryUsage();
    g.gc?.();
    const live = process.memoryUsage().heapUsed;
    process.stderr.write(
      `${step}: heapUsed ${mb(used.heapUsed)} live ${mb(live)} rss ${mb(used.rss)} maxRSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)}\n`,
    );
  }
}
async function timed<T>(step: string, body: () => T | Promise<T>): Promise<T> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  try {
    return await body();
  } finally {
    add(step, performance.now() - start, process.cpuUsage(cpu));
  }
}

const gcPauses = { minor: { count: 0, ms: 0 }, major: { count: 0, ms: 0 } };
const gc = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = ((entry as { detail?: unknown }).detail as { kind?: number } | undefined)?.kind;
    const pause = kind === constants.NODE_PERFORMANCE_GC_MINOR ? gcPauses.minor : gcPauses.major;
    pause.count++;
    pause.ms += entry.duration;
  }
});
gc.observe({ entryTypes: ["gc"] });

const dist = new URL("../packages/codegen/dist/", import.meta.url).href;
const [{ loadConfig }, { extract }, { contractFromIr }, { serializeContract }, emit] = await timed(
  "load the build's modules",
  () =>
    Promise.all([
      import(`${dist}config/load.js`),
      import(`${dist}extract/index.js`),
      import(`${dist}contract/from-ir.js`),
      import(`${dist}contract/read.js`),
      import(`${dist}emit/index.js`),
    ]),
);
const config = await timed("config", () => loadConfig({ configFile }));
const { servers } = await timed("extraction (program, IR; tsc checks in a child)", () => extract(config));
const contracts = await timed("contracts from IR, serialised", () =>
  servers.map((server: { name: string }) => {
    const contract = contractFromIr(server);
    serializeContract(contract);
    return contract;
  }),
);
const validatorCache = new Map();
for (const contract of contracts) {
  const ctx = {
    contract,
    contractFile: `schemas/${contract.server}.tools.json`,
    outDir: `generated/${contract.server}`,
    warnings: [],
    importExtension: ".js",
    ...(config.targets ? { targets: config.targets } : {}),
    validatorCache,
  };
  for (const emitter of emit.EMITTERS as ((c: typeof ctx) => unknown)[]) {
    await timed(`emit: ${emitter.name}`, () => emitter(ctx));
  }
}
gc.disconnect();

const total = [...steps.values()].reduce((s, t) => s + t.cpu, 0);
const rssMb = process.resourceUsage().maxRSS / 1024;
if (asJson) {
  process.stdout.write(`${JSON.stringify({ steps: Object.fromEntries(steps), gcPauses, rssMb, total })}\n`);
} else {
  process.stdout.write(`${configFile}, Node ${process.version}: ${total.toFixed(0)} ms CPU in process\n`);
  process.stdout.write(`  ${"step".padEnd(58)} ${"wall ms".padStart(8)} ${"CPU ms".padStart(8)}\n`);
  for (const [step, t] of steps) {
    process.stdout.write(
      `  ${step.padEnd(58)} ${t.wall.toFixed(0).padStart(8)} ${t.cpu.toFixed(0).padStart(8)}\n`,
    );
  }
  process.stdout.write(
    `  GC pauses (inside the steps above): ${gcPauses.minor.count} minor ${gcPauses.minor.ms.toFixed(0)} ms, ` +
      `${gcPauses.major.count} major ${gcPauses.major.ms.toFixed(0)} ms; peak RSS ${rssMb.toFixed(0)} MB\n`,
  );
}
