#!/usr/bin/env node
import module from "node:module";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";

// A one-off `build` (or `build --check`) runs each function of the pipeline over a corpus once:
// V8's top tier (TurboFan) costs more CPU to compile than its code saves there. Without it (Maglev
// stays), the N = 1000 build takes ~10-25 % less CPU on Node 22 and 24, with the same output
// (bench/README.md, "Build", fifth round). `--no-turbofan` because Node 24 ignores `--max-opt` set at
// run time. Node 20 has Maglev off, so there it would leave only baseline code (less CPU, more wall
// time): not applied. Not for `serve` or `build --watch`, which run for long; a `--max-opt` or
// `--turbofan` given to node wins. Set before the compile cache and the pipeline load.
const [command, ...rest] = process.argv.slice(2);
const major = Number(process.versions.node.split(".")[0]);
const capped =
  command === "build" &&
  major >= 22 &&
  !rest.some((a) => a === "--watch" || a === "-w") &&
  !process.execArgv.some((a) => /^--(no-)?(max-opt|turbofan)/.test(a));
if (capped) v8.setFlagsFromString("--no-turbofan");
// Node 24 also has Maglev on (Node 22 ships it off): for a small build it costs more CPU than it saves
// (held-out N = 25: 0.59 -> 0.50 s), from a few hundred tools on it pays back (N = 1000: 3.4 s with it,
// 4.3 s without). So it starts off, and the extraction calls this once it knows the tool modules are
// large (src/extract/large-build.ts). V8 keys cached code by its flags: they are set back before the
// exit handlers that write caches run, so the next build reads them. A `--maglev` given to node wins.
if (capped && major >= 24 && !process.execArgv.some((a) => /^--(no-)?maglev\b/.test(a))) {
  v8.setFlagsFromString("--no-maglev");
  globalThis[Symbol.for("mcp-gen.large-build")] = () => {
    v8.setFlagsFromString("--maglev");
    process.prependListener("exit", () => v8.setFlagsFromString("--no-maglev"));
  };
}

// Node 22.1+: V8 keeps the compiled code of mcp-gen, ts-morph's TypeScript and the MCP SDK on disk
// (os.tmpdir()/node-compile-cache, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off).
// Figures in bench/README.md ("Start-up the platform offers"). Imported after it, so it covers them.
// V8 rejects code cached under other flags, so a capped build keeps its own folder: otherwise it and
// `serve` would evict each other's entries of the modules both load, at every alternation (with
// NODE_COMPILE_CACHE set, Node opens that folder before this runs, and they still do).
module.enableCompileCache?.(
  capped
    ? path.join(process.env.NODE_COMPILE_CACHE || path.join(os.tmpdir(), "node-compile-cache"), "no-turbofan")
    : undefined,
);
// `serve` (what MCP clients launch, where start-up time counts) loads its own command only.
if (process.argv[2] === "serve") {
  const { serveMain } = await import("../dist/cli/serve-main.js");
  await serveMain(process.argv);
} else {
  const { main } = await import("../dist/cli/main.js");
  await main(process.argv);
}
