// The fast start of `mcp-gen serve`: an earlier start bundled the CLI, the generated server and
// the tool modules into plain JavaScript (see src/serve/cache.ts). When none of the bundled
// sources changed since, running that bundle skips the TypeScript loader, which costs more
// than everything else a start does. Kept in JavaScript: it runs before any loader exists.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { inputsUnchanged, ownCacheDir } from "./build-cache.js";

/** The cache folder of one command line in one working directory. */
export function serveCacheDir(argv, cwd = process.cwd()) {
  const base =
    process.env.MCP_GEN_CACHE_DIR || path.join(os.tmpdir(), `mcp-gen-serve-${process.getuid?.() ?? "user"}`);
  const key = createHash("sha256")
    .update(JSON.stringify([cwd, argv.slice(2), process.version, import.meta.url]))
    .digest("hex")
    .slice(0, 20);
  return path.join(base, key);
}

/** Runs the cached bundle when it is fresh; resolves false (nothing started) otherwise. */
export async function runCachedServe(argv) {
  if (process.env.MCP_GEN_NO_CACHE) return false;
  const dir = serveCacheDir(argv);
  let meta;
  try {
    if (!ownCacheDir(path.dirname(dir))) return false;
    meta = JSON.parse(readFileSync(path.join(dir, "meta.json"), "utf8"));
    if (!inputsUnchanged(meta.inputs)) return false;
  } catch {
    return false;
  }
  if (process.env.MCP_GEN_CACHE_REPORT) process.stderr.write("mcp-gen: fast start from cache\n");
  let start;
  try {
    start = (await import(pathToFileURL(path.join(dir, meta.entry)).href)).default;
  } catch (error) {
    if (process.env.MCP_GEN_CACHE_REPORT)
      process.stderr.write(`mcp-gen: fast start failed: ${error.message}\n`);
    return false;
  }
  await start(argv);
  return true;
}
