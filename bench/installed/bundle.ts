/**
 * The single-file deployment of the serve cold start (README, "Deploying"): the installed project's
 * esbuild (tsx's dependency) bundles a stdio entry of the generated server — `serveOverStdio` of
 * `@mcp-gen/runtime/server/stdio` where the installed runtime has it, else the production entry's
 * `serve` — and the SDK peer's server into one ESM file each, run from a folder of their own.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Command } from "./measure.ts";
import { NODE, type Project, runQuiet } from "./project.ts";

export interface Bundles {
  server: Command;
  sdk: Command;
  /** What the server's bundle was built from, and the sizes of both bundles. */
  note: string;
}

/** Bundles the server of `dir` and its `sdk-server.mjs` into `<dir>/bundle/`; throws on any warning. */
export function bundleServers(project: Project, dir: string, server: string): Bundles {
  const runtimeDist = path.join(project.root, "node_modules/@mcp-gen/runtime/dist/server");
  const stdioEntry = existsSync(path.join(runtimeDist, "stdio.js"));
  // the deploying guide's alias: the SDK's Ajv-backed default validator stays out of the bundle
  const shims = existsSync(path.join(runtimeDist, "sdk-shims.js"));
  mkdirSync(path.join(dir, "deploy"), { recursive: true });
  const entry = path.join(dir, "deploy/server.ts");
  writeFileSync(
    entry,
    stdioEntry
      ? `import { serveOverStdio } from "@mcp-gen/runtime/server/stdio";\nimport { manifest } from "../generated/${server}/server.js";\nawait serveOverStdio(manifest);\n`
      : `import { serve } from "@mcp-gen/runtime/server";\nimport { manifest } from "../generated/${server}/server.js";\nawait serve(manifest);\n`,
  );
  const out = path.join(dir, "bundle");
  // esbuild's bin is its native executable once its postinstall ran (the project allows it)
  const esbuild = path.join(project.root, "node_modules/esbuild/bin/esbuild");
  const bundle = (from: string, to: string, alias: string[] = []) => {
    const file = path.join(out, to);
    const ran = runQuiet(
      [
        esbuild,
        from,
        "--bundle",
        "--platform=node",
        "--format=esm",
        "--target=node20",
        `--outfile=${file}`,
        "--log-level=warning",
        ...alias,
      ],
      dir,
    );
    if (ran.status !== 0 || ran.output.trim() !== "") throw new Error(`esbuild ${from}:\n${ran.output}`);
    return statSync(file).size;
  };
  const sizes = {
    server: bundle(
      entry,
      "server.mjs",
      shims ? ["--alias:@modelcontextprotocol/server/_shims=@mcp-gen/runtime/server/sdk-shims"] : [],
    ),
    sdk: bundle(path.join(dir, "sdk-server.mjs"), "sdk.mjs"),
  };
  const kb = (n: number) => `${Math.round(n / 1024)} KB`;
  return {
    server: { argv: [NODE, "server.mjs"], cwd: out },
    sdk: { argv: [NODE, "sdk.mjs"], cwd: out },
    note: `bundled by esbuild from ${stdioEntry ? "`serveOverStdio` (`@mcp-gen/runtime/server/stdio`)" : "`serve` (`@mcp-gen/runtime/server`)"}${shims ? ", the SDK's `_shims` aliased to `@mcp-gen/runtime/server/sdk-shims`" : ""}: ${kb(sizes.server)}; the SDK server's bundle ${kb(sizes.sdk)}`,
  };
}
