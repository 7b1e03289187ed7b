/**
 * mcp-gen's smart-home server over stdio from code, for the benchmarks: `serve(manifest)` (the
 * batched stdio transport, as `mcp-gen serve` and `serveOverStdio` use), or with `sdk-transport`
 * the SDK's own `StdioServerTransport` (one pipe write per message), to measure what the batching
 * changes.
 *   node --import tsx/esm bench/server/stdio-entry.ts [sdk-transport]
 */
import { serve } from "@mcp-gen/runtime/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { manifest } from "../../generated/smart-home/server.ts";

if (process.argv[2] === "sdk-transport") {
  const running = await serve(manifest, { transport: new StdioServerTransport() });
  process.stdin.once("end", () => void running.close());
} else {
  await serve(manifest);
}
