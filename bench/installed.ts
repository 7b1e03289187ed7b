/**
 * Start-up figures of mcp-gen as users get it: its three packages packed with `npm pack` (from this
 * checkout's working tree and at `--baseline` refs) and installed from the tarballs into fresh npm
 * projects under os.tmpdir(), never through the workspace links. Measures, interleaved round by round
 * across refs and contenders (one warm-up each, then `--runs` rounds, medians):
 *   a. cold `mcp-gen build` (empty schemas/ and generated/) of the distinct corpus at each `--sizes`,
 *      whole process from the installed bin, against ts-json-schema-generator on the same files;
 *   b. serve cold start (spawn → `initialize` or `server/discover` answered on stdio, in each
 *      protocol era) of the N = 25 corpus's server: `mcp-gen serve`, the compiled production entry,
 *      the MCP SDK v2's McpServer with the same tools in zod 4.
 * Writes bench/results/installed-node<major>.{md,json} and prints the Markdown. Modules: bench/installed/.
 *
 * Usage: npx tsx bench/installed.ts [--runs 5] [--sizes 25,1000] [--baseline 15990a3|none]
 *   [--current tree|<ref>] [--only build|serve] [--eras 2025,2026] [--heldout] [--keep]
 * `--heldout` adds the held-out corpus of `corpus-heldout.ts` (25 tools, no type packages, ES2022 lib)
 * to the build tables (`--sizes none` builds it alone).
 * `--current` packs the working tree (default) or a ref; `--keep` leaves the projects in os.tmpdir().
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateDistinctCorpus } from "./corpus-distinct.ts";
import { BENCH_DIR } from "./corpus-gen.ts";
import { copyHeldOutCorpus } from "./corpus-heldout.ts";
import { buildTable } from "./installed/build.ts";
import { createProject, type Project } from "./installed/project.ts";
import { formatTable, ordered, type Table } from "./installed/report.ts";
import { serveTable } from "./installed/serve.ts";
import { describePacked, packRef, packWorkingTree } from "./installed/tarballs.ts";

const ROOT = path.dirname(BENCH_DIR);
const RESULTS = path.join(BENCH_DIR, "results");

const argv = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1]! : fallback;
};
const runs = Number(flag("--runs", "5"));
const sizes = flag("--sizes", "25,1000")
  .split(",")
  .filter((s) => s !== "none")
  .map(Number);
const baselines = flag("--baseline", "15990a3")
  .split(",")
  .filter((r) => r && r !== "none");
const only = flag("--only", "build,serve").split(",");
const current = flag("--current", "tree");
const eras = flag("--eras", "2025,2026").split(",") as ("2025" | "2026")[];
if (!eras.every((e) => e === "2025" || e === "2026")) throw new Error("--eras takes 2025, 2026 or both");

// per Node major, so runs on several Node versions at once do not rewrite each other's corpora
const NODE_MAJOR = process.versions.node.split(".")[0];
const corpusDir = (tools: number) =>
  path.join(BENCH_DIR, "corpus", `installed-distinct-${tools}-node${NODE_MAJOR}`);

async function main(): Promise<void> {
  const refsDir = path.join(RESULTS, "refs");
  const packed = [
    current === "tree" ? packWorkingTree(ROOT, refsDir) : packRef(ROOT, refsDir, current),
    ...baselines.map((r) => packRef(ROOT, refsDir, r)),
  ];
  const rootDev = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).devDependencies;
  const projects: Project[] = [];
  const scratch = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-installed-scratch-"));
  try {
    for (const p of packed) projects.push(createProject(p, rootDev));
    const corpora = sizes.map((tools) => generateDistinctCorpus({ tools, out: corpusDir(tools) }));
    const tables: Table[] = [];
    if (only.includes("build")) {
      const heldOut = argv.includes("--heldout")
        ? [copyHeldOutCorpus({ out: path.join(BENCH_DIR, "corpus", `installed-heldout-node${NODE_MAJOR}`) })]
        : [];
      for (const corpus of [...heldOut, ...corpora]) {
        tables.push(await buildTable(ROOT, projects, corpus, scratch, runs));
      }
    }
    if (only.includes("serve")) {
      const small =
        corpora.find((c) => c.tools <= 50) ?? generateDistinctCorpus({ tools: 25, out: corpusDir(25) });
      tables.push(await serveTable(projects, small, runs, eras));
    }
    const cpus = os.cpus();
    const machine = `${cpus.length} × ${cpus[0]?.model ?? "CPU"}, Node ${process.version}, ${os.platform()} ${os.release()}`;
    const installs = projects.map(
      (p) =>
        `- ${describePacked(p.packed)} ("${p.packed.subject}"): ${Object.entries(p.versions)
          .map(([n, v]) => `${n} ${v}`)
          .join(", ")}`,
    );
    const text = [
      `machine: ${machine}; ${runs} interleaved rounds after one warm-up each, medians`,
      "",
      "Installed from `npm pack` tarballs into fresh projects under os.tmpdir():",
      ...installs,
      "",
      ...tables.map(formatTable),
    ].join("\n");
    process.stdout.write(`${text}\n`);
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(path.join(RESULTS, `installed-node${NODE_MAJOR}.md`), `${text}\n`);
    const json = {
      machine,
      runs,
      packed,
      projects: projects.map(({ root: _, ...p }) => p),
      tables: tables.map((t) => ({ ...t, rows: ordered(t.rows) })),
    };
    writeFileSync(
      path.join(RESULTS, `installed-node${NODE_MAJOR}.json`),
      `${JSON.stringify(json, null, 2)}\n`,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    for (const p of projects) {
      if (argv.includes("--keep")) process.stderr.write(`kept ${p.root}\n`);
      else rmSync(p.root, { recursive: true, force: true });
    }
  }
}

await main();
