// TypeScript as ts-morph bundles it (`@ts-morph/common/dist/typescript.js`), without ts-morph: a build
// creates its programs with `ts.createProgram` and loads ts-morph's `Project` (and `@ts-morph/common`'s
// 3 MB of embedded `lib.*.d.ts` texts) only when it needs them: ≈ 55 ms of every build's start on
// Node 24 (bench/README.md, "Build"). Resolved from ts-morph's own folder, so it is the copy ts-morph
// uses wherever the package manager put it. Not imported as an ES module, which would first scan the
// CommonJS for its export names (cjs-module-lexer over 9 MB). mcp-gen's sources import `#ts-morph`.
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import module, { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";

const require = createRequire(import.meta.url);
const fromTsMorph = createRequire(require.resolve("ts-morph"));
const TYPESCRIPT = fromTsMorph.resolve("@ts-morph/common/dist/typescript.js");

/**
 * With Node's compile cache on (the bin turns it on, Node 22.1+), TypeScript's code is cached after a
 * build ran, not when the module was compiled as Node's cache does: V8 compiles a function when it first
 * runs, so Node's entry holds TypeScript's top level only, and each build compiled the parser, binder and
 * checker functions it calls again (≈ 80 ms of a 25-tool build on Node 24). The file sits in the
 * folder Node keys by its version and V8's flags; V8 rejects data it cannot use, and a build that
 * finds it missing or rejected writes it anew when it exits. Elsewhere TypeScript is `require`d.
 */
function loadTypeScript() {
  const folder = module.getCompileCacheDir?.();
  if (!folder) return require(TYPESCRIPT);
  // V8 checks the source's length only, so the name holds the file's version and time: an edited
  // typescript.js (a patch) gets a cache of its own.
  const { version } = fromTsMorph("@ts-morph/common/package.json");
  const file = path.join(
    folder,
    `mcp-gen-typescript-${version}-${Math.trunc(statSync(TYPESCRIPT).mtimeMs)}.cache`,
  );
  let cachedData;
  try {
    cachedData = readFileSync(file);
  } catch {}
  const script = new vm.Script(module.wrap(readFileSync(TYPESCRIPT, "utf8")), {
    filename: TYPESCRIPT,
    cachedData,
  });
  const loaded = new module.Module(TYPESCRIPT, undefined);
  loaded.filename = TYPESCRIPT;
  loaded.paths = module._nodeModulePaths(path.dirname(TYPESCRIPT));
  // ts-morph, if a command loads it later, gets this instance: `require` finds it in the cache.
  require.cache[TYPESCRIPT] = loaded;
  script.runInThisContext()(
    loaded.exports,
    createRequire(TYPESCRIPT),
    loaded,
    TYPESCRIPT,
    path.dirname(TYPESCRIPT),
  );
  loaded.loaded = true;
  if (!cachedData || script.cachedDataRejected) process.once("exit", () => writeCache(file, script));
  return loaded.exports;
}

function writeCache(file, script) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(temp, script.createCachedData());
    renameSync(temp, file);
  } catch {
    // A folder that cannot be written: the next build compiles again. Nothing here may throw (exit handler).
    try {
      rmSync(temp, { force: true });
    } catch {}
  }
}

export const ts = loadTypeScript();

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
