import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { codeBlocks } from "../../../../scripts/docs/markers.ts";
import { ok, REPO_ROOT, run } from "./run.ts";

/** A TypeScript block of the docs, as a file of the docs' project. */
export interface Snippet {
  /** Where the block is: `docs/guide/agent.md:42`. */
  source: string;
  /** Its file in the project. */
  file: string;
}

/** README.md and every page of the site (not `docs/design/`, not the site's config). */
export function docPages(): string[] {
  const pages = ["README.md"];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "design") walk(rel);
      else if (entry.isFile() && entry.name.endsWith(".md")) pages.push(rel);
    }
  };
  walk("docs");
  return pages.sort();
}

/**
 * Every `ts` block not marked `fragment` becomes a module of the project: in the folder its first
 * line names (`// src/server.ts` → `src/`, so its relative imports resolve as written), else at the
 * root, where `./generated/<server>/…` is.
 */
export function writeSnippets(dir: string): Snippet[] {
  const snippets: Snippet[] = [];
  for (const page of docPages()) {
    const slug = page.replace(/\.md$/, "").replaceAll("/", "-");
    for (const block of codeBlocks(readFileSync(path.join(REPO_ROOT, page), "utf8"))) {
      if (!["ts", "typescript"].includes(block.lang) || /\bfragment\b/.test(block.meta)) continue;
      const named = /^\/\/ ([\w./-]+\.ts)\b/.exec(block.code)?.[1];
      const folder = named ? path.dirname(named) : ".";
      const file = path.join(folder, `doc-${slug}-L${block.line}.ts`);
      mkdirSync(path.join(dir, folder), { recursive: true });
      writeFileSync(path.join(dir, file), `${block.code}export {};\n`);
      snippets.push({ source: `${page}:${block.line}`, file });
    }
  }
  return snippets;
}

const DOCS_CONFIG = `import { defineConfig } from "@mcp-gen/codegen/config";

export default defineConfig({
  tsconfig: "tsconfig.examples.json",
  importExtension: ".js",
  servers: {
    calc: { tools: ["src/tools.ts"] },
    "smart-home": { tools: ["examples/smart-home/tools.ts"] },
    "structured-output": { tools: ["examples/structured-output/submit.ts"] },
  },
});
`;

const tsconfig = (include: string[]) =>
  `${JSON.stringify(
    {
      extends: "./tsconfig.json",
      compilerOptions: { noEmit: true, allowImportingTsExtensions: true },
      include,
    },
    null,
    2,
  )}\n`;

/**
 * Compiles the docs' TypeScript blocks in the getting-started project (packed packages and the LLM
 * SDKs installed):
 * the repository's examples the docs use are copied in and built, every block is written as a module,
 * and the project's own tsc checks them with its own tsconfig (plus `.ts` imports, which the examples
 * use). Resolves with tsc's output, each snippet file followed by the page and line it comes from.
 */
export async function compileSnippets(dir: string): Promise<{ code: number | null; output: string }> {
  for (const example of ["smart-home", "structured-output"]) {
    cpSync(path.join(REPO_ROOT, "examples", example), path.join(dir, "examples", example), {
      recursive: true,
    });
  }
  writeFileSync(path.join(dir, "mcp-gen.docs.config.ts"), DOCS_CONFIG);
  writeFileSync(path.join(dir, "tsconfig.examples.json"), tsconfig(["src", "examples"]));
  await ok("npx", ["--offline", "--no", "--", "mcp-gen", "build", "--config", "mcp-gen.docs.config.ts"], {
    cwd: dir,
  });
  const snippets = writeSnippets(dir);
  writeFileSync(
    path.join(dir, "tsconfig.docs.json"),
    tsconfig(["src", "examples", "generated", "**/doc-*.ts"]),
  );
  const ran = await run("npx", ["--offline", "--no", "--", "tsc", "-p", "tsconfig.docs.json"], { cwd: dir });
  let output = `${ran.stdout}${ran.stderr}`;
  for (const s of snippets) output = output.replaceAll(s.file, `${s.file} (${s.source})`);
  return { code: ran.code, output: `${snippets.length} blocks compiled\n${output}` };
}
