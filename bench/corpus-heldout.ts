/**
 * The held-out corpus of issue 23: 25 tools of a help desk, a warehouse and a travel desk, written by
 * hand in `bench/heldout/tools/` as a team would write them (enums, `Date`, `Promise` results,
 * `Pick`/`Omit`/`Partial`, discriminated unions, template literal types, defaults, inline object
 * parameters) — not by mcp-gen's generators, so nothing in it is shaped for mcp-gen. Its project
 * has no type packages (`types: []`) and `lib: ["ES2022"]`: the shape of project on which the
 * N = 25 build was slowest against ts-json-schema-generator. Every parameter has a type annotation
 * (ts-json-schema-generator 2.4 cannot type `limit = 20`).
 *
 * Library: `copyHeldOutCorpus({ out })`; CLI: `npx tsx bench/corpus-heldout.ts [out]`.
 */
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { DistinctCorpus } from "./corpus-distinct.ts";

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const SOURCES = path.join(BENCH_DIR, "heldout", "tools");

/** The held-out project's compiler options: no type packages, the ES2022 library alone. */
export const HELD_OUT_TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2022"],
    types: [],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    skipLibCheck: true,
    outDir: "dist",
  },
  include: ["tools", "generated", "src"],
};

/** Writes the held-out corpus (its tools, one server `desk`, its tsconfig) to `out` and returns its paths. */
export function copyHeldOutCorpus(options: { out?: string } = {}): DistinctCorpus {
  const root = path.resolve(options.out ?? path.join(BENCH_DIR, "corpus", "heldout"));
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  cpSync(SOURCES, path.join(root, "tools"), { recursive: true });
  const modules = readdirSync(path.join(root, "tools"))
    .filter((f) => f.endsWith(".ts"))
    .sort()
    .map((f) => path.join(root, "tools", f));
  const config = path.join(root, "mcp-gen.config.ts");
  writeFileSync(
    config,
    'import { defineConfig } from "@mcp-gen/codegen/config";\n\nexport default defineConfig({\n  servers: {\n    desk: { tools: ["tools/*.ts"] },\n  },\n});\n',
  );
  const tsconfig = path.join(root, "tsconfig.json");
  writeFileSync(tsconfig, `${JSON.stringify(HELD_OUT_TSCONFIG, null, 2)}\n`);
  return {
    root,
    config,
    tsconfig,
    modules,
    servers: { desk: modules },
    tools: 25,
    name: "held-out",
    ownTsconfig: true,
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const corpus = copyHeldOutCorpus(process.argv[2] ? { out: process.argv[2] } : {});
  process.stdout.write(`${corpus.root}: ${corpus.tools} tools in ${corpus.modules.length} modules\n`);
}
