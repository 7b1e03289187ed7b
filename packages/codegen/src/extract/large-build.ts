import { statSync } from "node:fs";

/**
 * The bin's capped build (`bin/mcp-gen.js`) starts with V8's Maglev tier off on Node 24, where it is on
 * by default: compiling hot functions with it costs a small build more CPU than it saves (held-out
 * N = 25: −16 %; N = 250: −5 %), while from a few hundred tools on it pays back (N = 1000: +28 %
 * without it). The bin puts a function under this symbol that turns it back on; the extraction calls
 * it once it knows the size of the tool modules. Nothing happens outside the bin (no function there).
 */
const LARGE_BUILD = Symbol.for("mcp-gen.large-build");

/** Tool module bytes from which a build is large (distinct corpus: N = 250 is 183 KB, N = 1000 792 KB). */
export const LARGE_BUILD_BYTES = 400_000;

/**
 * Tells the bin, if it asked, that the build is large.
 *
 * @example
 * signalBuildSize(["/abs/src/tools.ts"]);
 */
export function signalBuildSize(files: readonly string[]): void {
  const hook = (globalThis as Record<symbol, unknown>)[LARGE_BUILD];
  if (typeof hook !== "function") return;
  let bytes = 0;
  for (const file of files) bytes += statSync(file).size;
  if (bytes >= LARGE_BUILD_BYTES) hook();
}
