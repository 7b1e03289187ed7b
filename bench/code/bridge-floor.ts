/**
 * Code mode's bridge, itemised: what one call costs inside the engine and across its boundary,
 * with no tool and no host bridge around it (the host answers every call at once with
 * search_devices' 123-character result). The program is the sandbox bench's: 1,000 sequential
 * `await home.search_devices({ query: "客厅 灯", limit: 2 })`, in a fresh QuickJS context with the
 * real prelude. Rows, CPU µs per call, medians, the variants interleaved:
 * - the round trip through quickjs-emscripten's handle API (what the bridge did before),
 * - the same round trip on the raw FFI (`engine-ffi.ts`, what the bridge does now),
 * - each crossing alone on the raw FFI: an answer handed in (to an id nobody waits for, so the
 *   engine does not parse it), the job queue run with nothing in it, an empty queue drained,
 * - the engine's own share, run inside the engine with no crossing: JSON.parse of the answer,
 *   JSON.stringify of the arguments, a promise settled and awaited, the queue's text.
 *   npx tsx bench/code/bridge-floor.ts [--rounds 15]
 */
import { loadavg } from "node:os";
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { createEngineCalls } from "../../packages/runtime/src/code/sandbox/engine-ffi.ts";
import { instantiateEngine, quickjsModule } from "../../packages/runtime/src/code/sandbox/engine-module.ts";
import { INSTALL, wrapProgram } from "../../packages/runtime/src/code/sandbox/prelude.ts";

const i = process.argv.indexOf("--rounds");
const ROUNDS = i === -1 ? 15 : Number(process.argv[i + 1]);
const N = 1000;
const RESULT = JSON.stringify([
  { id: "light-01", name: "客厅吸顶灯", type: "light", room: "客厅", online: true },
  { id: "light-02", name: "客厅落地灯", type: "light", room: "客厅", online: true },
]);
const ARGS = JSON.stringify({ query: "客厅 灯", limit: 2 });
const PROGRAM = `let n = 0;\nfor (let i = 0; i < ${N}; i++) n += (await home.search_devices(${ARGS})).length;\nreturn n;`;
const engine = await instantiateEngine({ wasmModule: await quickjsModule(), memoryBytes: 64 * 1024 * 1024 });
const { quickjs } = engine;

interface Fresh {
  ctx: QuickJSContext;
  resolve: QuickJSHandle;
  drain: QuickJSHandle;
  dispose(): void;
}

function fresh(): Fresh {
  const runtime = quickjs.newRuntime();
  runtime.setInterruptHandler(() => false);
  const ctx = runtime.newContext();
  const install = ctx.unwrapResult(ctx.evalCode(INSTALL));
  const names = ctx.unwrapResult(ctx.evalCode(`[["home",["search_devices"]]]`));
  const limit = ctx.newNumber(65536);
  const bridge = ctx.unwrapResult(ctx.callFunction(install, ctx.undefined, names, limit));
  const resolve = ctx.getProp(bridge, "resolve");
  const drain = ctx.getProp(bridge, "drain");
  for (const handle of [install, names, limit, bridge]) handle.dispose();
  return {
    ctx,
    resolve,
    drain,
    dispose() {
      resolve.dispose();
      drain.dispose();
      ctx.dispose();
      runtime.dispose();
    },
  };
}

const cpuPerCall = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / N;
};

/** Drives the program with `crossings`, answering each call in a microtask, as the bridge does. */
function roundTrips(kind: "handles" | "ffi"): Promise<number> {
  const { ctx, resolve, drain, dispose } = fresh();
  const calls =
    kind === "ffi"
      ? createEngineCalls({ quickjs, context: ctx, memory: engine.memory, Lifetime: engine.Lifetime })
      : undefined;
  const start = process.cpuUsage();
  const program = ctx.unwrapResult(ctx.evalCode(wrapProgram(PROGRAM), "program.js"));
  return new Promise<number>((done) => {
    const pump = () => {
      let text: string;
      let pending: boolean;
      if (calls) {
        calls.runJobs();
        text = calls.text(drain);
        pending = calls.promiseState(program) === 0;
      } else {
        ctx.unwrapResult(ctx.runtime.executePendingJobs());
        const drained = ctx.unwrapResult(ctx.callFunction(drain, ctx.undefined));
        text = ctx.getString(drained);
        drained.dispose();
        pending = ctx.getPromiseState(program).type === "pending";
      }
      if (!pending) return done(cpuPerCall(start));
      const ids = (JSON.parse(`[${text}]`) as [number][]).map((item) => item[0]);
      queueMicrotask(() => {
        for (const id of ids) {
          if (calls) calls.settle(resolve, id, RESULT);
          else {
            const args = [ctx.newNumber(id), ctx.newString(RESULT)];
            ctx.unwrapResult(ctx.callFunction(resolve, ctx.undefined, args)).dispose();
            for (const handle of args) handle.dispose();
          }
        }
        pump();
      });
    };
    pump();
  }).finally(() => {
    program.dispose();
    calls?.dispose();
    dispose();
  });
}

/** One crossing alone, N times. */
function crossing(kind: "settle" | "jobs" | "drain"): number {
  const { ctx, resolve, drain, dispose } = fresh();
  const calls = createEngineCalls({
    quickjs,
    context: ctx,
    memory: engine.memory,
    Lifetime: engine.Lifetime,
  });
  const start = process.cpuUsage();
  for (let n = 0; n < N; n++) {
    if (kind === "settle") calls.settle(resolve, 1e9, RESULT);
    else if (kind === "jobs") calls.runJobs();
    else calls.text(drain);
  }
  const us = cpuPerCall(start);
  calls.dispose();
  dispose();
  return us;
}

/** One piece of the engine's work per call, in a loop inside the engine (no crossing). */
function inEngine(body: string): number {
  const { ctx, dispose } = fresh();
  const start = process.cpuUsage();
  ctx.unwrapResult(ctx.evalCode(`(async () => { ${body} })()`)).dispose();
  ctx.unwrapResult(ctx.runtime.executePendingJobs());
  const us = cpuPerCall(start);
  dispose();
  return us;
}

const rows: Record<string, () => number | Promise<number>> = {
  "round trip, quickjs-emscripten handle API": () => roundTrips("handles"),
  "round trip, raw FFI (the bridge now)": () => roundTrips("ffi"),
  "  crossing: an answer handed in (not parsed)": () => crossing("settle"),
  "  crossing: the job queue run, empty": () => crossing("jobs"),
  "  crossing: the queue drained, empty": () => crossing("drain"),
  "  in the engine: JSON.parse of the answer": () =>
    inEngine(`const s = ${JSON.stringify(RESULT)}; for (let i = 0; i < ${N}; i++) JSON.parse(s);`),
  "  in the engine: JSON.stringify of the arguments": () =>
    inEngine(`for (let i = 0; i < ${N}; i++) JSON.stringify(${ARGS});`),
  "  in the engine: a promise kept in a Map (one executor), resolved and awaited": () =>
    inEngine(
      `const m = new Map(); let id = 0; const keep = (a, b) => { m.set(id, [a, b]); }; for (let i = 0; i < ${N}; i++) { id = i; const p = new Promise(keep); const c = m.get(i); m.delete(i); c[0](i); await p; }`,
    ),
  "  in the engine: the queue's item text, pushed and drained": () =>
    inEngine(
      `const q = []; const mid = "," + 0 + ","; for (let i = 0; i < ${N}; i++) { q.push("[" + i + mid + ${JSON.stringify(ARGS)} + "]"); const t = q.length === 1 ? q[0] : q.join(","); q.length = 0; }`,
    ),
};
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(rows).map((k) => [k, []]));
for (let r = 0; r < ROUNDS + 3; r++)
  for (const [name, row] of Object.entries(rows)) {
    const us = await row();
    if (r >= 3) samples[name]!.push(us);
  }
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
console.log(
  `Node ${process.version}, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}, ${ROUNDS} rounds of ${N} calls\n| per call | CPU µs |\n| --- | ---: |`,
);
for (const [name, list] of Object.entries(samples)) console.log(`| ${name} | ${median(list).toFixed(2)} |`);
