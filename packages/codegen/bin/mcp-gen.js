#!/usr/bin/env node
// Runs the TypeScript sources through tsx's loader (tool modules and configs are TypeScript too).
// `mcp-gen serve` first tries the bundle an earlier start cached, which needs no loader.
const cached = process.argv[2] === "serve" && (await import("./serve-cache.js")).runCachedServe(process.argv);
if (!(await cached)) {
  const { register } = await import("tsx/esm/api");
  register();
  const { main } = await import("../src/cli/main.ts");
  await main(process.argv);
}
