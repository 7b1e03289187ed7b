/**
 * Code mode's bridge, before and after a change, interleaved: the same 1,000-call program (1,000
 * sequential `await home.search_devices({ query: "客厅 灯", limit: 2 })`, in process through
 * `bindManifest`, engine in the calling thread) run by the runtime's sources of an earlier commit
 * and by this checkout's, alternating, then 1,000 direct calls (the input validator and the
 * binding's `call`, as `bench/code/sandbox.ts` does); CPU µs per call (`process.cpuUsage()`),
 * medians of the rounds after 3 to warm up, and each bridged median ÷ the direct one.
 *   mkdir -p .scratch/bench-base && git archive <commit> packages/runtime/src | tar -x -C .scratch/bench-base
 *   npx tsx bench/code/bridge-ab.ts [--rounds 40] [--base .scratch/bench-base]
 * (`.scratch/bench-base/`, ignored by git, sits in the checkout so that its imports resolve from the same node_modules.)
 */
import { loadavg } from "node:os";
import { manifest } from "../../generated/smart-home/server.ts";
import * as after from "../../packages/runtime/src/code/index.ts";

type CodeModule = typeof after;
const i = process.argv.indexOf("--rounds");
const ROUNDS = i === -1 ? 40 : Number(process.argv[i + 1]);
const baseArg = process.argv.indexOf("--base");
const baseDir = baseArg === -1 ? ".scratch/bench-base" : process.argv[baseArg + 1];
const base = new URL(`../../${baseDir}/packages/runtime/src/code/index.ts`, import.meta.url);
const before = (await import(base.href)) as CodeModule;
const N = 1000;
const ARGS = JSON.stringify({ query: "客厅 灯", limit: 2 });
const PROGRAM = `let n = 0;\nfor (let i = 0; i < ${N}; i++) n += (await home.search_devices(${ARGS})).length;\nreturn n;`;
const limits = { maxCalls: N, timeMs: 600_000 };
const variants = Object.entries({ before, after }).map(([name, code]) => ({
  name,
  sandbox: code.createSandbox({ thread: "caller" }),
  api: { home: { search_devices: code.bindManifest(manifest).search_devices! } },
}));
const direct = after.bindManifest(manifest).search_devices!;
const signal = new AbortController().signal;
const samples: Record<string, number[]> = { before: [], after: [], direct: [] };
const perCall = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / N;
};
for (let r = 0; r < ROUNDS + 3; r++) {
  for (const { name, sandbox, api } of variants) {
    const start = process.cpuUsage();
    const result = await sandbox.run(PROGRAM, { api, limits });
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
    if (r >= 3) samples[name]!.push(perCall(start));
  }
  const start = process.cpuUsage();
  for (let c = 0; c < N; c++) {
    const args = JSON.parse(ARGS) as Record<string, unknown>;
    if (!direct.input!.check(args).ok) throw new Error("invalid arguments");
    if ((await direct.call(args, { signal })).isError) throw new Error("the tool failed");
  }
  if (r >= 3) samples.direct!.push(perCall(start));
}
for (const { sandbox } of variants) await sandbox.close();
const median = (list: number[]) => [...list].sort((a, b) => a - b)[list.length >> 1]!;
const [b, a, d] = [samples.before!, samples.after!, samples.direct!].map(median) as [number, number, number];
console.log(
  `| ${process.version} | ${loadavg()[0]!.toFixed(1)} | ${b.toFixed(1)} µs = ${(b / d).toFixed(2)} × | ${a.toFixed(1)} µs = ${(a / d).toFixed(2)} × | ${d.toFixed(2)} µs |`,
);
