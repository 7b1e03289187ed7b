// The fast start of `mcp-gen build`: an earlier run bundled the CLI (mcp-gen's sources and the
// pure-JavaScript packages they use) into one CommonJS file (see src/cli/build-cache.ts). While
// none of its inputs changed, that bundle is `require`d: the sources skip the TypeScript loader,
// and ts-morph's TypeScript loads as plain CommonJS, compiled from a V8 code cache (code-cache.js).
// tsx is still registered, as on the plain start, for TypeScript configs. Kept in JavaScript: it
// runs before any loader exists.
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { installCodeCache } from "./code-cache.js";

/** The cache folders of this CLI on this Node: the bundle, and the code cache of large files. */
export function buildCacheDirs() {
  const env = process.env.MCP_GEN_CACHE_DIR;
  const base = env || path.join(os.tmpdir(), `mcp-gen-build-${process.getuid?.() ?? "user"}`);
  const key = createHash("sha256")
    .update(JSON.stringify([process.version, process.arch, import.meta.url]))
    .digest("hex")
    .slice(0, 20);
  return {
    base,
    bundle: path.join(base, `build-${key}`),
    code: path.join(base, `build-code-${key}`),
    seen: path.join(base, `build-${key}.seen`),
  };
}

/**
 * True when the cache folder is this user's own and nobody else can write to it: code is only
 * loaded from a folder no other user could have put it in.
 */
export function ownCacheDir(dir) {
  const stat = statSync(dir);
  return !process.getuid || (stat.uid === process.getuid() && (stat.mode & 0o022) === 0);
}

/**
 * True when every input a cache recorded (path, size, mtime, inode) is still the same file: the
 * inode too, as a file replaced by one with the same size and a preserved mtime (`cp -p`, some
 * installers) is a different file. Throws when one is gone.
 */
export function inputsUnchanged(inputs) {
  return inputs.every((input) => {
    const stat = statSync(input.path);
    return stat.mtimeMs === input.mtimeMs && stat.size === input.size && stat.ino === input.ino;
  });
}

/** Runs the cached bundle when it is fresh; resolves false (nothing started) otherwise. */
export async function runCachedBuild(argv) {
  if (process.env.MCP_GEN_NO_CACHE) return false;
  const dirs = buildCacheDirs();
  let bundle;
  let meta;
  try {
    if (!ownCacheDir(dirs.base)) throw new Error(`${dirs.base} is not only this user's: not used`);
    meta = JSON.parse(readFileSync(path.join(dirs.bundle, "meta.json"), "utf8"));
    if (!inputsUnchanged(meta.inputs)) return false;
    bundle = createRequire(import.meta.url)(path.join(dirs.bundle, meta.entry));
  } catch (error) {
    if (process.env.MCP_GEN_CACHE_REPORT && error.code !== "ENOENT")
      process.stderr.write(`mcp-gen: fast build start failed: ${error.message}\n`);
    return false;
  }
  if (process.env.MCP_GEN_CACHE_REPORT) process.stderr.write("mcp-gen: fast build start from cache\n");
  // ts-morph is required later, when the build begins (the bundle loads it on use).
  installCodeCache({ dir: dirs.code, accept: (file) => meta.codeCache.some((dir) => file.startsWith(dir)) });
  const { register } = await import("tsx/esm/api");
  register();
  await bundle.main(argv);
  return true;
}
