#!/usr/bin/env node
import module from "node:module";

// Node 22.1+: V8 keeps the compiled code of mcp-gen, ts-morph's TypeScript and the MCP SDK on disk
// (os.tmpdir()/node-compile-cache, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off).
// Figures in bench/README.md ("Start-up the platform offers"). Imported after it, so it covers them.
module.enableCompileCache?.();
// `serve` (what MCP clients launch, where start-up time counts) loads its own command only.
if (process.argv[2] === "serve") {
  const { serveMain } = await import("../dist/cli/serve-main.js");
  await serveMain(process.argv);
} else {
  const { main } = await import("../dist/cli/main.js");
  await main(process.argv);
}
