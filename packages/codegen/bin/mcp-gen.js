#!/usr/bin/env node
// Runs the TypeScript sources through tsx's loader (tool modules and configs are TypeScript too).
// `mcp-gen serve` and `mcp-gen build` first try the bundle an earlier start cached, which loads
// mcp-gen itself without the loader; a plain `build` caches one when it is done.
const command = process.argv[2];
const cached =
  command === "serve"
    ? (await import("./serve-cache.js")).runCachedServe(process.argv)
    : command === "build" && (await import("./build-cache.js")).runCachedBuild(process.argv);
if (!(await cached)) {
  const { register } = await import("tsx/esm/api");
  register();
  const { main } = await import("../src/cli/main.ts");
  await main(process.argv);
  if (command === "build" && !process.env.MCP_GEN_NO_CACHE) {
    const { writeBuildCache } = await import("../src/cli/build-cache.ts");
    // A failure only means the next build does not start faster.
    await writeBuildCache().then(
      (done) => report(`mcp-gen: fast build start ${done}\n`),
      (error) => report(`mcp-gen: fast build start not cached: ${error.message}\n`),
    );
  }
}

/** Cache events go to stderr only with MCP_GEN_CACHE_REPORT set. */
function report(line) {
  if (process.env.MCP_GEN_CACHE_REPORT) process.stderr.write(line);
}
