import type { ServerManifest } from "@mcp-gen/runtime/server";
import { loadServerManifest } from "./load-manifest.ts";

/**
 * The manifest of a server through its config (the TypeScript loader runs the generated
 * `server.ts` and the tool modules), then, in the background, a fast-start bundle of what ran for
 * the next start of the same command line (see `cache.ts`). `MCP_GEN_NO_CACHE` skips the bundle.
 */
export async function loadAndCache(options: {
  server: string;
  configFile?: string;
}): Promise<ServerManifest> {
  const { manifest, location } = await loadServerManifest(options);
  if (!process.env.MCP_GEN_NO_CACHE) {
    const { writeServeCache } = await import("./cache.ts");
    // In the background: serving starts now; a failure only means the next start is not faster.
    void writeServeCache({ argv: process.argv, location }).then(
      () => report("mcp-gen: fast start cached\n"),
      (error: Error) => report(`mcp-gen: fast start not cached: ${error.message}\n`),
    );
  }
  return manifest;
}

/** Cache events go to stderr only with MCP_GEN_CACHE_REPORT set (tests wait for them). */
function report(line: string): void {
  if (process.env.MCP_GEN_CACHE_REPORT) process.stderr.write(line);
}
