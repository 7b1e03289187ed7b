// TypeScript as ts-morph bundles it (`@ts-morph/common/dist/typescript.js`), loaded with `require` and
// without ts-morph: a build creates its programs with `ts.createProgram` and loads ts-morph's
// `Project` (and `@ts-morph/common`'s 3 MB of embedded `lib.*.d.ts` texts) only when it needs them:
// ≈ 55 ms of every build's start on Node 24 (bench/README.md, "Build"). Resolved from ts-morph's own
// folder, so it is the copy ts-morph uses wherever the package manager put it. Imported as an ES
// module, Node would first scan the CommonJS for its export names (cjs-module-lexer over 9 MB).
// mcp-gen's sources import `#ts-morph` (package.json "imports").
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const fromTsMorph = createRequire(require.resolve("ts-morph"));

export const ts = fromTsMorph("@ts-morph/common/dist/typescript.js");

/** ts-morph's `Project` class (loads ts-morph on first use). */
export function tsMorphProject() {
  return require("ts-morph").Project;
}

/** The `lib.*.d.ts` texts ts-morph embeds (loads `@ts-morph/common`). */
export function tsMorphLibFiles() {
  return fromTsMorph("@ts-morph/common").getLibFiles();
}

/** The version of `@ts-morph/common` (its embedded lib texts are keyed by it), without loading it. */
export function tsMorphCommonVersion() {
  return fromTsMorph("@ts-morph/common/package.json").version;
}
