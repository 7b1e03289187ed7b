import path from "node:path";
import type { EmitContext } from "./context.ts";

/**
 * The extension of relative import specifiers in generated TypeScript: `.ts` (the project imports
 * `.ts` files, `allowImportingTsExtensions`), `.js` (what `tsc` emits for NodeNext) or `""` (none:
 * bundlers resolve it).
 */
export type ImportExtension = ".js" | ".ts" | "";

export const IMPORT_EXTENSIONS: readonly ImportExtension[] = [".js", ".ts", ""];

/** TypeScript extensions and what a `.js`-style specifier names them by. */
const JS_OF: Record<string, string> = { ".ts": ".js", ".tsx": ".js", ".mts": ".mjs", ".cts": ".cjs" };

/**
 * The specifier of a TypeScript module under the context's import extension: `./index.ts` →
 * `./index.js` (`.js`), `./index` (`""`) or itself (`.ts`). `.mts`/`.cts` become `.mjs`/`.cjs`
 * under both `.js` and `""` (bundlers do not try `.mts` for a bare name); anything else (`.json`,
 * `.js`) is left as it is.
 *
 * @example
 * importSpecifier(ctx, "../../src/tools.ts"); // "../../src/tools.js" under ".js"
 */
export function importSpecifier(ctx: Pick<EmitContext, "importExtension">, specifier: string): string {
  const ext = path.posix.extname(specifier);
  const js = JS_OF[ext];
  if (js === undefined || ctx.importExtension === ".ts") return specifier;
  const base = specifier.slice(0, -ext.length);
  if (ctx.importExtension === "" && (ext === ".ts" || ext === ".tsx")) return base;
  return `${base}${js}`;
}

/** The module at `file` (relative to the project root) as a specifier relative to the output folder. */
export function relativeSpecifier(
  ctx: Pick<EmitContext, "importExtension" | "outDir">,
  file: string,
): string {
  const relative = path.posix.relative(ctx.outDir, file);
  return importSpecifier(ctx, relative.startsWith(".") ? relative : `./${relative}`);
}
