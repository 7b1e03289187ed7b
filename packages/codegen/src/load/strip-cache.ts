import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import module from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

type LoadResult = { format?: string; source?: string | Buffer; shortCircuit?: boolean };
type NextLoad = (url: string, context: { format?: string | null }) => LoadResult;
/** A synchronous load hook. */
export type LoadHook = (url: string, context: { format?: string | null }, next: NextLoad) => LoadResult;
type StripTypes = (source: string, options: { mode: "strip" }) => string;

/**
 * A load hook (`module.registerHooks`, Node 22.15+) that keeps what Node's type stripping makes of
 * the user's ES-module TypeScript (config, generated server, validators, tools) in
 * `os.tmpdir()/mcp-gen-strip-cache`, keyed by the Node version and the file's content: a start
 * whose files did not change never loads the stripper (amaro, WebAssembly: a fifth to a third of
 * `mcp-gen serve`'s start CPU in a profile; bench/README.md, "Issue 23, the server side"). Stripping is `module.stripTypeScriptTypes` in `strip` mode, what Node's loader does itself
 * (whitespace in place of types: positions, hence stack traces, are unchanged). Anything else
 * (CommonJS TypeScript, files under node_modules, syntax stripping refuses, a cache that cannot be
 * written) goes to Node's own loading. Entries are not pruned: each changed file adds one.
 * `MCP_GEN_NO_CACHE=1` turns it off.
 */
export function stripCacheHook(dir = path.join(os.tmpdir(), "mcp-gen-strip-cache")): LoadHook | undefined {
  const strip = (module as unknown as { stripTypeScriptTypes?: StripTypes }).stripTypeScriptTypes;
  if (!strip || process.env.MCP_GEN_NO_CACHE === "1") return undefined;
  let writable = true;
  return (url, context, next) => {
    // Node refuses to strip files under node_modules (tsx then loads them): that stays so.
    if (context.format !== "module-typescript" || !url.startsWith("file:") || url.includes("/node_modules/"))
      return next(url, context);
    let source: string;
    try {
      source = readFileSync(fileURLToPath(url), "utf8");
    } catch {
      return next(url, context);
    }
    const key = createHash("sha256").update(`${process.version}\0`).update(source).digest("hex").slice(0, 40);
    const cached = path.join(dir, `${key}.js`);
    try {
      return { format: "module", source: readFileSync(cached, "utf8"), shortCircuit: true };
    } catch {
      // not cached yet
    }
    let stripped: string;
    try {
      stripped = quietly(() => strip(source, { mode: "strip" }));
    } catch {
      return next(url, context); // Node reports the syntax it refuses, with its own message
    }
    if (writable) {
      try {
        mkdirSync(dir, { recursive: true });
        const temp = `${cached}.${process.pid}.tmp`;
        writeFileSync(temp, stripped);
        renameSync(temp, cached);
      } catch {
        writable = false;
      }
    }
    return { format: "module", source: stripped, shortCircuit: true };
  };
}

/**
 * Runs `fn` without the ExperimentalWarning Node 22 prints for `stripTypeScriptTypes` (its own
 * loader, doing the same stripping, prints none): a stdio server's stderr is the client's log.
 * Other warnings pass through.
 */
function quietly<T>(fn: () => T): T {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes("stripTypeScriptTypes")) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return fn();
  } finally {
    process.emitWarning = emitWarning;
  }
}
