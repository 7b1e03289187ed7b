// A V8 code cache for the large CommonJS files `mcp-gen build` requires (TypeScript, ts-morph):
// compiling typescript.js alone takes ~170 ms; V8 restores the compiled functions from the cache
// far faster. Each file's cache records the file's size, mtime and inode, and a checksum of its
// own bytes: anything that does not match is not used, and the file is compiled as usual.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import Module from "node:module";
import path from "node:path";
import vm from "node:vm";

/** Files smaller than this compile faster than their cache is read. */
const MIN_SIZE = 256 * 1024;

/**
 * From now on, CommonJS files of at least MIN_SIZE bytes that `accept` takes compile with the code
 * cache in `dir`; files without a usable cache get one written when the process exits.
 */
export function installCodeCache({ dir, accept }) {
  const original = Module.prototype._compile;
  const pending = [];
  Module.prototype._compile = function compile(content, filename) {
    if (content.length < MIN_SIZE || content.startsWith("#!") || !accept(filename)) {
      return original.call(this, content, filename);
    }
    const file = path.join(dir, `${createHash("sha1").update(filename).digest("hex").slice(0, 20)}.bin`);
    const stamp = fileStamp(filename);
    const cachedData = readCache(file, stamp);
    // The same wrapper Node puts around a CommonJS module (line numbers stay as they are).
    const script = new vm.Script(Module.wrap(content), { filename, ...(cachedData ? { cachedData } : {}) });
    if (!cachedData || script.cachedDataRejected) pending.push({ file, stamp, script });
    const fn = script.runInThisContext({ displayErrors: true });
    return fn.call(this.exports, this.exports, makeRequire(this), this, filename, path.dirname(filename));
  };
  process.once("exit", () => {
    for (const { file, stamp, script } of pending) writeCache(file, stamp, script.createCachedData());
  });
}

/** The `require` Node gives a module (Node's own helper is internal). */
function makeRequire(mod) {
  const require = (id) => mod.require(id);
  require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
  require.resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

function fileStamp(filename) {
  const stat = statSync(filename);
  return { mtimeMs: stat.mtimeMs, size: stat.size, ino: stat.ino, v8: process.versions.v8 };
}

const sum = (data) => createHash("sha1").update(data).digest("hex");

/** Layout: 4 bytes header length, JSON header (stamp of the source, checksum), V8's data. */
function readCache(file, stamp) {
  try {
    const bytes = readFileSync(file);
    const length = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.subarray(4, 4 + length).toString("utf8"));
    const data = bytes.subarray(4 + length);
    const same = Object.keys(stamp).every((key) => header.stamp?.[key] === stamp[key]);
    return same && header.sum === sum(data) ? data : undefined;
  } catch {
    return undefined;
  }
}

function writeCache(file, stamp, data) {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const header = Buffer.from(JSON.stringify({ stamp, sum: sum(data) }), "utf8");
    const length = Buffer.alloc(4);
    length.writeUInt32LE(header.length, 0);
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, Buffer.concat([length, header, data]));
    renameSync(tmp, file);
  } catch {
    // A cache that cannot be written only means the next start compiles again.
  }
}
