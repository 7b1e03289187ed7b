import { createRequire } from "node:module";

/** A TypeScript compiler with a JavaScript API for code mode's type check, and how it reads its library. */
export interface CodeCompiler {
  typescript?: unknown;
  readLib?: (fileName: string) => string | undefined;
}

/**
 * The compiler code mode checks programs with: the project's `typescript` when it has a JavaScript
 * API (5.x, 6.x), else the one ts-morph bundles (mcp-gen's own dependency), whose library files
 * live in memory in `@ts-morph/common`. TypeScript 7 is native and has no such API.
 */
export async function codeCompiler(): Promise<CodeCompiler> {
  try {
    const ts = (await import("typescript")) as { default?: unknown; createLanguageService?: unknown };
    const api = (ts.default ?? ts) as { createLanguageService?: unknown };
    if (typeof api.createLanguageService === "function") return {};
  } catch {
    // no typescript where mcp-gen runs: ts-morph's
  }
  const { ts } = await import("ts-morph");
  const require = createRequire(import.meta.url);
  const fromMorph = createRequire(require.resolve("ts-morph"));
  const common = (await import(fromMorph.resolve("@ts-morph/common"))) as {
    getLibFiles(): { fileName: string; text: string }[];
  };
  const libs = new Map(common.getLibFiles().map((f) => [f.fileName, f.text]));
  return { typescript: ts, readLib: (name) => libs.get(name) };
}
