/**
 * How long `check(program)` takes on a warm checker, for an API of 20 and of 200 distinct tools
 * (`corpus.ts`): p50/p99 over programs that each call two tools with arguments sampled from their
 * input schemas, every other one with a mistyped argument (so half the checks report an error).
 * Every program text is different, so nothing is answered from a cache.
 *
 * Usage: npx tsx --conditions @mcp-gen/source bench/code/check.ts [--runs 200] [--compiler ts5|ts6]
 */
import { performance } from "node:perf_hooks";
import { apiNames, apiServer } from "@mcp-gen/schema";
import ts5 from "typescript-5";
import { createChecker } from "../../packages/runtime/src/code/index.ts";
import { codeCorpus, sample } from "./corpus.ts";

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf("--runs") + 1] || 200) || 200;
const compiler = args.includes("ts6") ? "ts6" : "ts5";

async function typescript(): Promise<{ typescript: unknown; readLib?: (n: string) => string | undefined }> {
  if (compiler === "ts5") return { typescript: ts5 };
  const { ts } = await import("ts-morph");
  const { getLibFiles } = await import("@ts-morph/common");
  const libs = getLibFiles();
  return { typescript: ts, readLib: (n) => libs.find((f) => f.fileName === n)?.text };
}

const ms = (values: number[], q: number) =>
  values.sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

for (const size of [20, 200]) {
  const { contracts } = await codeCorpus(size);
  const servers = contracts.map(apiServer);
  const names = apiNames(servers);
  const calls = servers.flatMap((s) =>
    s.tools.map((t) => {
      const n = names.get(s.name)!;
      const value = JSON.stringify(sample(t.inputSchema, t.inputSchema));
      const hasArgs = value !== "{}";
      return { call: `${n.namespace}.${n.tools.get(t.name)}(${hasArgs ? value : ""})`, hasArgs, value };
    }),
  );
  let start = performance.now();
  const checker = await createChecker({ servers, ...(await typescript()) });
  const create = performance.now() - start;
  const program = (i: number) => {
    const a = calls[i % calls.length]!;
    const b = calls[(i * 7 + 3) % calls.length]!;
    const second = i % 2 === 1 && b.hasArgs ? b.call.replace(/:("x"|1|true|null)/, ":{}") : b.call;
    return `const first = await ${a.call};\nconsole.log("run ${i}", first);\nconst second = await ${second};\nreturn { i: ${i}, done: [first, second].length };`;
  };
  start = performance.now();
  checker.check(program(0));
  const first = performance.now() - start;
  const times: number[] = [];
  const cpu: number[] = [];
  let failed = 0;
  for (let i = 1; i <= runs; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    const r = checker.check(program(i));
    const used = process.cpuUsage(c);
    times.push(performance.now() - t);
    cpu.push((used.user + used.system) / 1000);
    if (!r.ok) failed++;
  }
  process.stdout.write(
    `${compiler} ${size} tools: createChecker ${create.toFixed(0)} ms, first check ${first.toFixed(0)} ms, ` +
      `warm p50 ${ms(times, 0.5).toFixed(1)} ms, p99 ${ms(times, 0.99).toFixed(1)} ms wall ` +
      `(CPU p50 ${ms(cpu, 0.5).toFixed(1)} ms, p99 ${ms(cpu, 0.99).toFixed(1)} ms) over ${runs} checks (${failed} with errors)\n`,
  );
}
