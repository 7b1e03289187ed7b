/**
 * The cold-build table: `mcp-gen build` of one corpus from each project's installed bin (for a
 * ref whose CLI had start-up caches, once with its defaults and once with `MCP_GEN_NO_CACHE=1`),
 * `mcp-gen build --check` of an unchanged build (on its own copy of the corpus, built once), and
 * ts-json-schema-generator (the repository's node_modules copy) on the same files.
 */
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import type { DistinctCorpus } from "../corpus-distinct.ts";
import { measureTable, type TableContender, timeProcess } from "./measure.ts";
import { addCorpus, installedVersion, NODE, type Project } from "./project.ts";
import type { Table } from "./report.ts";
import { describePacked } from "./tarballs.ts";

export async function buildTable(
  repoRoot: string,
  projects: readonly Project[],
  corpus: DistinctCorpus,
  scratch: string,
  runs: number,
): Promise<Table> {
  const tsjsg = path.join(repoRoot, "node_modules/ts-json-schema-generator");
  let tsjsgTypeScript: string;
  try {
    tsjsgTypeScript = installedVersion(tsjsg, "typescript");
  } catch {
    tsjsgTypeScript = installedVersion(repoRoot, "typescript");
  }
  const tsjsgVersion = installedVersion(repoRoot, "ts-json-schema-generator");
  /** What the baseline's cache says it did (MCP_GEN_CACHE_REPORT), e.g. why it wrote no cache. */
  const cacheEvents = new Set<string>();
  const noteCacheEvents = (text: string) => {
    for (const line of text.split("\n")) if (line.startsWith("mcp-gen: fast")) cacheEvents.add(line.trim());
  };
  const clean = (dir: string) => () => {
    for (const out of ["schemas", "generated"]) rmSync(path.join(dir, out), { recursive: true, force: true });
  };
  const slug = `${corpus.name ?? "distinct"}-n${corpus.tools}`;
  const dirs = projects.map((p) => addCorpus(p, corpus, slug));
  const list: TableContender[] = [];
  projects.forEach((p, i) => {
    const dir = dirs[i]!;
    const cache = { MCP_GEN_CACHE_DIR: path.join(scratch, "cache", p.packed.key), MCP_GEN_CACHE_REPORT: "1" };
    const modes: [string, string, Record<string, string>][] = p.hasCaches
      ? [
          ["defaults", "its defaults (start-up caches on)", cache],
          ["no-cache", "`MCP_GEN_NO_CACHE=1`", { MCP_GEN_NO_CACHE: "1" }],
        ]
      : [["", "", {}]];
    for (const [mode, text, env] of modes) {
      list.push({
        id: `build@${p.packed.key}${mode ? `:${mode}` : ""}`,
        label: `\`mcp-gen build\`, ${describePacked(p.packed)}${text ? `, ${text}` : ""}`,
        peer: "tsjsg",
        prepare: clean(dir),
        run: () => timeProcess({ argv: [NODE, p.bin, "build"], cwd: dir, env }, scratch, noteCacheEvents),
      });
    }
  });
  // `build --check` where nothing changed (CI's step), on a copy of the corpus built once
  projects.forEach((p) => {
    const dir = addCorpus(p, corpus, `${slug}-check`);
    let built = false;
    list.push({
      id: `check@${p.packed.key}`,
      label: `\`mcp-gen build --check\`, nothing changed, ${describePacked(p.packed)}`,
      peer: "tsjsg",
      prepare: () => {
        if (!built) execFileSync(NODE, [p.bin, "build"], { cwd: dir, stdio: "ignore" });
        built = true;
      },
      run: () => timeProcess({ argv: [NODE, p.bin, "build", "--check"], cwd: dir, env: {} }, scratch),
    });
  });
  const dir = dirs[0]!;
  const tsjsgArgs = [
    "--path",
    path.join(dir, "tools/*.ts"),
    "-t",
    "*",
    "--tsconfig",
    path.join(dir, "tsconfig.json"),
  ];
  list.push({
    id: "tsjsg",
    label: `ts-json-schema-generator ${tsjsgVersion}, \`-t '*'\` (schemas only)`,
    prepare: clean(dir),
    run: () =>
      timeProcess(
        {
          argv: [
            NODE,
            path.join(tsjsg, "dist/ts-json-schema-generator.js"),
            ...tsjsgArgs,
            ...["-o", path.join(scratch, "tsjsg.json")],
          ],
          cwd: dir,
        },
        scratch,
      ),
  });
  const note =
    "Whole process from the installed bin (`node <project>/node_modules/@mcp-gen/codegen/bin/mcp-gen.js build`), " +
    "`schemas/` and `generated/` emptied before each run, the corpus's default config (every provider target). " +
    `ts-json-schema-generator: the repository's node_modules copy (${tsjsgVersion}, its TypeScript ${tsjsgTypeScript}), ` +
    "on the first project's copy of the corpus, `--tsconfig` absolute.";
  const servers = Object.keys(corpus.servers).length;
  const title = `Cold build: N = ${corpus.tools} tools, ${corpus.name ?? "distinct"} corpus (${corpus.modules.length} modules, ${servers} servers)`;
  const table = await measureTable(title, "s", [note], list, runs);
  if (cacheEvents.size > 0) {
    table.notes.push(`The baseline's cache reported: ${[...cacheEvents].map((e) => `\`${e}\``).join("; ")}.`);
  }
  return table;
}
