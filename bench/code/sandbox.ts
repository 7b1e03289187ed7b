/**
 * Code mode's sandbox: per-program overhead of `Sandbox.run` (fresh QuickJS runtime and context,
 * API install, result check; a worker round trip with `--thread worker`) at 0, 1 and 20 tool
 * calls, p50/p99; the bridge's cost per call against calling the same tool directly with
 * validation. The tool is the smart-home example's `search_devices`, bound two ways: its generated
 * manifest in process, and the same manifest served by mcp-gen through the SDK client over an
 * in-memory transport. Last, the floors: a bare QuickJS host function returning a promise the host
 * resolves (what any bridge into this engine costs), and a postMessage round trip to a worker.
 *   npx tsx bench/code/sandbox.ts [--runs 200] [--thread caller|worker] [--long-only]
 *   (both threads by default, one after the other; --long-only: only the 1,000-call rows and the floors)
 * (the worker runs from the compiled runtime: `npx tsc -b packages/runtime` first)
 */
import { setMaxListeners } from "node:events";
import { loadavg } from "node:os";
import { PerformanceObserver } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import variantModule from "@jitl/quickjs-wasmfile-release-sync";
import { connectInMemory } from "@mcp-gen/runtime/client";
import { bindClientTools, bindManifest, createSandbox, type ProgramTool } from "@mcp-gen/runtime/code";
import { createServer } from "@mcp-gen/runtime/server";
import { newQuickJSWASMModuleFromVariant, type QuickJSSyncVariant } from "quickjs-emscripten-core";
import { validators } from "../../generated/smart-home/index.ts";
import { manifest } from "../../generated/smart-home/server.ts";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const RUNS = arg("runs", 200);
const only = process.argv.indexOf("--thread");
const LONG_ONLY = process.argv.includes("--long-only");
const THREADS = (only === -1 ? ["caller", "worker"] : [process.argv[only + 1]]) as ("caller" | "worker")[];
const ARGS = JSON.stringify({ query: "客厅 灯", limit: 2 });
const signal = new AbortController().signal;
setMaxListeners(0, signal);
const imported = variantModule as unknown as QuickJSSyncVariant & { default?: QuickJSSyncVariant };
const variant = imported.default ?? imported;
const programs = {
  "0 calls": "return 1;",
  "1 call": `return (await home.search_devices(${ARGS})).length;`,
  "20 calls, sequential": `let n = 0;\nfor (let i = 0; i < 20; i++) n += (await home.search_devices(${ARGS})).length;\nreturn n;`,
  "20 calls, Promise.all": `const all = await Promise.all(Array.from({ length: 20 }, () => home.search_devices(${ARGS})));\nreturn all.length;`,
};
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
const sorted = (list: number[]) => [...list].sort((a, b) => a - b);

/** The same call without the sandbox: the input validator, then the binding. */
const direct = (binding: ProgramTool) => async () => {
  const args = JSON.parse(ARGS) as Record<string, unknown>;
  const checked = binding.input!.check(args);
  if (!checked.ok) throw new Error(checked.message);
  const result = await binding.call(args, { signal });
  if (result.isError) throw new Error("tool failed");
};

async function measure(label: string, binding: ProgramTool, THREAD: "caller" | "worker") {
  const api = { home: { search_devices: binding } };
  const coldStart = performance.now();
  const sandbox = createSandbox({ thread: THREAD });
  const first = await sandbox.run("return 1;", { api });
  const cold = performance.now() - coldStart;
  if (!first.ok) throw new Error(first.error.message);
  const call = direct(binding);
  for (let i = 0; i < 30; i++)
    for (const program of Object.values(programs)) await sandbox.run(program, { api });
  for (let i = 0; i < 500; i++) await call();
  // Interleaved, so that load on the shared machine hits every program (and the direct calls) alike.
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(programs).map((k) => [k, []]));
  const directSamples: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    for (const [name, program] of Object.entries(programs)) {
      const start = performance.now();
      const result = await sandbox.run(program, { api });
      samples[name]!.push(performance.now() - start);
      if (!result.ok) throw new Error(`${name}: ${result.error.message}`);
    }
    const start = performance.now();
    for (let i = 0; i < 20; i++) await call();
    directSamples.push(((performance.now() - start) / 20) * 1000);
  }
  await sandbox.close();
  const directUs = quantile(sorted(directSamples), 0.5);
  console.log(
    `\n${label}, engine in the ${THREAD} thread — cold start of a sandbox (compile WebAssembly, instantiate, first run): ${cold.toFixed(0)} ms`,
  );
  console.log("| program | p50 ms | p99 ms |\n| --- | ---: | ---: |");
  const p50: Record<string, number> = {};
  for (const [name, list] of Object.entries(samples)) {
    const s = sorted(list);
    p50[name] = quantile(s, 0.5);
    console.log(`| ${name} | ${quantile(s, 0.5).toFixed(2)} | ${quantile(s, 0.99).toFixed(2)} |`);
  }
  console.log(
    `direct call with validation: ${directUs.toFixed(1)} µs (p50 of batches of 20, in the same rounds)`,
  );
  for (const name of ["20 calls, sequential", "20 calls, Promise.all"]) {
    const us = ((p50[name]! - p50["0 calls"]!) / 20) * 1000;
    console.log(
      `bridged, ${name.slice(10)}: ${us.toFixed(1)} µs per call = ${(us / directUs).toFixed(2)} x direct`,
    );
  }
}

/**
 * The bridge's cost per call without the per-program costs: one program of 1,000 sequential
 * calls against 1,000 direct calls, alternating, 7 rounds after 3 to warm up; medians of wall
 * time, and of CPU time (`process.cpuUsage()`, every thread of the process: the worker's too),
 * which a loaded machine stretches far less than wall time; and V8's garbage collections during
 * each (a PerformanceObserver's "gc" entries), per 1,000 calls.
 */
async function longProgram(label: string, binding: ProgramTool, thread: "caller" | "worker") {
  const N = 1000;
  const api = { home: { search_devices: binding } };
  const sandbox = createSandbox({ thread });
  const program = `let n = 0;\nfor (let i = 0; i < ${N}; i++) n += (await home.search_devices(${ARGS})).length;\nreturn n;`;
  const call = direct(binding);
  const limits = { maxCalls: N, timeMs: 600_000 };
  const bridged: number[] = [];
  const plain: number[] = [];
  const bridgedCpu: number[] = [];
  const plainCpu: number[] = [];
  let collections = 0;
  const gc = new PerformanceObserver((list) => {
    collections += list.getEntries().length;
  });
  gc.observe({ entryTypes: ["gc"] });
  // entries arrive after the collection: a macrotask turn before each count is read
  const settle = () => new Promise((resolve) => setTimeout(resolve, 5));
  const bridgedGc: number[] = [];
  const plainGc: number[] = [];
  const cpuUs = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / N;
  };
  for (let r = 0; r < 10; r++) {
    await settle();
    collections = 0;
    let start = performance.now();
    let cpu = process.cpuUsage();
    const result = await sandbox.run(program, { api, limits });
    if (!result.ok) throw new Error(result.error.message);
    if (r >= 3) bridged.push(((performance.now() - start) / N) * 1000);
    if (r >= 3) bridgedCpu.push(cpuUs(cpu));
    await settle();
    if (r >= 3) bridgedGc.push(collections);
    collections = 0;
    start = performance.now();
    cpu = process.cpuUsage();
    for (let i = 0; i < N; i++) await call();
    if (r >= 3) plain.push(((performance.now() - start) / N) * 1000);
    if (r >= 3) plainCpu.push(cpuUs(cpu));
    await settle();
    if (r >= 3) plainGc.push(collections);
  }
  gc.disconnect();
  await sandbox.close();
  const [b, d, bc, dc, bg, dg] = [bridged, plain, bridgedCpu, plainCpu, bridgedGc, plainGc].map((l) =>
    quantile(sorted(l), 0.5),
  ) as [number, number, number, number, number, number];
  console.log(
    `| ${label}, ${thread} thread | ${b.toFixed(1)} / ${d.toFixed(1)} µs = ${(b / d).toFixed(2)} × | ${bc.toFixed(1)} / ${dc.toFixed(1)} µs = ${(bc / dc).toFixed(2)} × | ${bg} / ${dg} |`,
  );
}

/**
 * The floor of any bridge into this engine, on quickjs-emscripten's own API: the program awaits a
 * host function 20 times in a loop; each call returns a new promise that the host resolves (with
 * undefined) in a microtask, then runs the engine's pending jobs.
 */
async function quickjsFloor(result?: string): Promise<number> {
  const quickjs = await newQuickJSWASMModuleFromVariant(variant);
  const once = () => {
    const runtime = quickjs.newRuntime();
    const ctx = runtime.newContext();
    const parse = ctx.unwrapResult(ctx.evalCode("JSON.parse"));
    return new Promise<number>((resolve) => {
      const f = ctx.newFunction("f", () => {
        const promise = ctx.newPromise();
        queueMicrotask(() => {
          if (result === undefined) promise.resolve(ctx.undefined);
          else {
            // the result crosses as JSON text, parsed by the engine: the least any result costs
            const text = ctx.newString(result);
            const value = ctx.unwrapResult(ctx.callFunction(parse, ctx.undefined, text));
            promise.resolve(value);
            text.dispose();
            value.dispose();
          }
          promise.dispose();
          runtime.executePendingJobs();
        });
        return promise.handle;
      });
      const done = ctx.newFunction("done", () => resolve(performance.now() - start));
      ctx.setProp(ctx.global, "f", f);
      ctx.setProp(ctx.global, "done", done);
      f.dispose();
      done.dispose();
      const start = performance.now();
      ctx
        .unwrapResult(ctx.evalCode("(async () => { for (let i = 0; i < 20; i++) await f(); done(); })()"))
        .dispose();
      runtime.executePendingJobs();
    }).then((ms) => {
      parse.dispose();
      ctx.dispose();
      runtime.dispose();
      return (ms / 20) * 1000;
    });
  };
  for (let i = 0; i < 100; i++) await once();
  const samples: number[] = [];
  for (let r = 0; r < RUNS; r++) samples.push(await once());
  return quantile(sorted(samples), 0.5);
}

/** The floor of any bridge to a worker thread: one postMessage there and back, doing nothing. */
async function postMessageFloor(): Promise<number> {
  const echo = new Worker(
    'const { parentPort } = require("node:worker_threads"); parentPort.on("message", (m) => parentPort.postMessage(m));',
    { eval: true },
  );
  const ping = () =>
    new Promise((resolve) => {
      echo.once("message", resolve);
      echo.postMessage(1);
    });
  for (let i = 0; i < 500; i++) await ping();
  const samples: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const start = performance.now();
    for (let i = 0; i < 20; i++) await ping();
    samples.push(((performance.now() - start) / 20) * 1000);
  }
  await echo.terminate();
  return quantile(sorted(samples), 0.5);
}

console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}, ${RUNS} runs each, Node ${process.version}`,
);
if (!LONG_ONLY) {
  for (const thread of THREADS)
    await measure("in process (bindManifest)", bindManifest(manifest).search_devices!, thread);
  const connection = await connectInMemory(createServer(manifest));
  const { tools } = await connection.client.listTools();
  // The generated client's spec: search_devices returns an array, which travels wrapped as { result }.
  const specs = { search_devices: { ...validators.search_devices, resultWrapped: true } };
  const overMcp = bindClientTools({ client: connection.client, tools, specs }).search_devices!;
  for (const thread of THREADS) await measure("MCP client, in memory (bindClientTools)", overMcp, thread);
  await connection.close();
}
console.log(
  "\none program of 1,000 sequential calls against 1,000 direct calls, per call (medians of 7 rounds)",
);
console.log(
  "| tool, engine | wall: bridged / direct | CPU: bridged / direct | GCs per 1,000 calls: bridged / direct |\n| --- | ---: | ---: | ---: |",
);
for (const thread of THREADS) await longProgram("in process", bindManifest(manifest).search_devices!, thread);
{
  const again = await connectInMemory(createServer(manifest));
  const listed = (await again.client.listTools()).tools;
  const specs = { search_devices: { ...validators.search_devices, resultWrapped: true } };
  const binding = bindClientTools({ client: again.client, tools: listed, specs }).search_devices!;
  for (const thread of THREADS) await longProgram("MCP client, in memory", binding, thread);
  await again.close();
}
console.log(
  `\nfloor: a QuickJS host function returning a promise, resolved by the host: ${(await quickjsFloor()).toFixed(1)} µs per call`,
);
{
  const result = await bindManifest(manifest).search_devices!.call(JSON.parse(ARGS), { signal });
  const json = JSON.stringify((result.structuredContent as { result: unknown }).result);
  console.log(
    `floor with the result crossing (search_devices' ${json.length} characters of JSON, parsed in the engine): ${(await quickjsFloor(json)).toFixed(1)} µs per call`,
  );
}
console.log(
  `floor: one postMessage round trip to a worker thread: ${(await postMessageFloor()).toFixed(1)} µs`,
);
