/**
 * Watch benchmark: incremental rebuild time of `mcp-gen build --watch` after one file of an
 * N-tool corpus changes, against a full build of the same corpus.
 *
 *   npx tsx bench/watch/bench.ts [--tools 1000] [--runs 5] [--corpus template|distinct] [--out DIR]
 *
 * `--corpus distinct` (issue 13's corpus, `corpus-distinct.ts`: every signature different, plain
 * types, default config) instead of the template corpus of `corpus-gen.ts`.
 *
 * - full build: a fresh `mcp-gen build` process with `schemas/` and `generated/` removed first, as
 *   `bench/build.ts` measures it; also `build()` repeated in this warm process (stricter);
 * - edit: one tool's JSDoc summary changes in one module (its server's contract changes, so that
 *   server is re-extracted module by module and re-emitted), timed through `BuildSession.rebuild`;
 * - type edit: one tool gains (or loses again) an optional parameter, so its input schema and its
 *   validator change too;
 * - touch: a comment is appended to one module (re-checked and re-extracted, contract unchanged,
 *   nothing written);
 * - CLI: the same edit against a real `mcp-gen build --watch` process, from the write to the
 *   "✓ rebuilt" line (includes file-system notification and the 40 ms debounce).
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "../../packages/codegen/src/build.ts";
import { BuildSession } from "../../packages/codegen/src/watch/session.ts";
import { generateDistinctCorpus } from "../corpus-distinct.ts";
import { BENCH_DIR, generateCorpus } from "../corpus-gen.ts";

const { values } = parseArgs({
  options: {
    tools: { type: "string", default: "1000" },
    runs: { type: "string", default: "5" },
    out: { type: "string" },
    corpus: { type: "string", default: "template" },
  },
});
if (values.corpus !== "template" && values.corpus !== "distinct")
  throw new Error("--corpus: template or distinct");
const tools = Number(values.tools);
const runs = Number(values.runs);
const out =
  values.out ?? path.join(BENCH_DIR, "corpus", values.corpus === "distinct" ? "watch-distinct" : "watch");
const corpus =
  values.corpus === "distinct"
    ? generateDistinctCorpus({ tools, out })
    : generateCorpus({ tools, out, targets: ["anthropic", "openai", "gemini"] });
const serverCount = Object.keys(corpus.servers).length;
const BIN = path.resolve(import.meta.dirname, "../../packages/codegen/bin/mcp-gen.js");

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const stats = (xs: number[]) =>
  `${Math.round(median(xs))} ms (min ${Math.round(Math.min(...xs))}, max ${Math.round(Math.max(...xs))})`;

const clean = () => {
  rmSync(path.join(corpus.root, "schemas"), { recursive: true, force: true });
  rmSync(path.join(corpus.root, "generated"), { recursive: true, force: true });
};

const target = corpus.modules[Math.floor(corpus.modules.length / 2)]!;
let edits = 0;
/** Changes the summary of the first tool of the module (so its contract changes). */
const editSummary = () => {
  const text = readFileSync(target, "utf8");
  edits++;
  writeFileSync(target, text.replace(/\/\*\*\n \* ([^\n@]*?)(?: v\d+)?\n/, `/**\n * $1 v${edits}\n`));
};

let typeEdits = 0;
/** Adds an optional parameter to the module's first tool, or takes it away again. */
const editType = () => {
  const text = readFileSync(target, "utf8");
  const added = /, benchExtra\d+\?: string\)/;
  typeEdits++;
  writeFileSync(
    target,
    added.test(text)
      ? text.replace(added, ")")
      : text.replace(/(export function \w+\()([^)]*)\)/, (_, head: string, params: string) =>
          params.trim()
            ? `${head}${params}, benchExtra${typeEdits}?: string)`
            : `${head}benchExtra${typeEdits}?: string)`,
        ),
  );
};

const { session, error } = await BuildSession.start({ cwd: corpus.root });
if (error) throw error;
const edit: number[] = [];
const typeEdit: number[] = [];
const touch: number[] = [];
for (let i = 0; i < runs; i++) {
  editSummary();
  let t = performance.now();
  const r = await session.rebuild([target]);
  edit.push(performance.now() - t);
  if (r.written.length === 0) throw new Error("the edit did not change the contract");
  editType();
  t = performance.now();
  const typed = await session.rebuild([target]);
  typeEdit.push(performance.now() - t);
  if (!typed.written.some((f) => f.endsWith("validators.ts")))
    throw new Error("the type edit left the validators as they were");
  writeFileSync(target, `${readFileSync(target, "utf8")}\n// touched ${i}\n`);
  t = performance.now();
  await session.rebuild([target]);
  touch.push(performance.now() - t);
}

const cli = await cliEdits(runs);

/** A full build as users run it: a fresh `mcp-gen build` process into empty output folders. */
const full: number[] = [];
for (let i = 0; i < runs; i++) {
  clean();
  const t = performance.now();
  const r = spawnSync(process.execPath, [BIN, "build"], { cwd: corpus.root, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`mcp-gen build failed: ${r.stderr}`);
  full.push(performance.now() - t);
}
/** The same build in this (warm) process: no start-up, JIT warm — the stricter comparison. */
const warm: number[] = [];
for (let i = 0; i < runs; i++) {
  clean();
  const t = performance.now();
  await build({ cwd: corpus.root });
  warm.push(performance.now() - t);
}

const ratio = (x: number) => `${((100 * x) / median(full)).toFixed(1)} %`;
console.log(
  `corpus: ${values.corpus}, ${tools} tools, ${corpus.modules.length} modules, ${serverCount} servers (${corpus.root})`,
);
console.log(
  `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
console.log("");
console.log("| measurement | time | of a full build |");
console.log("| --- | --- | --- |");
console.log(`| full build (\`mcp-gen build\` process) | ${stats(full)} | 100 % |`);
console.log(`| full build in a warm process (\`build()\`) | ${stats(warm)} | ${ratio(median(warm))} |`);
console.log(
  `| watch: edit one tool's summary (rebuild) | ${stats(edit)} | ${ratio(median(edit))} (${((100 * median(edit)) / median(warm)).toFixed(1)} % of warm) |`,
);
console.log(
  `| watch: add or remove an optional parameter of one tool (rebuild) | ${stats(typeEdit)} | ${ratio(median(typeEdit))} (${((100 * median(typeEdit)) / median(warm)).toFixed(1)} % of warm) |`,
);
console.log(`| watch: touch one file, contract unchanged | ${stats(touch)} | ${ratio(median(touch))} |`);
console.log(`| watch CLI: save → "✓ rebuilt" line | ${stats(cli)} | ${ratio(median(cli))} |`);

/** Times the same edit through a real `mcp-gen build --watch` process. */
async function cliEdits(count: number): Promise<number[]> {
  const child = spawn(process.execPath, [BIN, "build", "--watch"], { cwd: corpus.root });
  let stdout = "";
  let notify: (() => void) | undefined;
  child.stdout.on("data", (d) => {
    stdout += d;
    notify?.();
  });
  const lines = (re: RegExp) => (stdout.match(re) ?? []).length;
  const until = (re: RegExp, n: number) =>
    new Promise<void>((resolve) => {
      notify = () => lines(re) >= n && resolve();
      notify();
    });
  await until(/^watching/gm, 1);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    editSummary();
    await until(/^✓ rebuilt/gm, i + 1);
    times.push(performance.now() - t);
    await until(/^watching/gm, i + 2);
  }
  child.kill("SIGINT");
  return times;
}
