/**
 * The baseline: the same tool on the official SDK v2's `McpServer` with zod 4 schemas, written the
 * way the SDK's v2 docs write a server ("Build your first server", "Serve over stdio", "Serve over
 * HTTP", "Tools › Return structured output"): a factory that builds an `McpServer` and registers
 * the tool with `z.object()` input, served by `serveStdio(factory)` or by
 * `createMcpHandler(factory)` (default options: 2026-07-28 per request, 2025-era traffic served
 * statelessly) mounted on `node:http` with `toNodeHandler` behind the docs' localhost Host and
 * Origin guards. Both protocol eras come from the same factory. zod 4 is the root devDependency
 * alias `zod4` (the repository pins zod 3 elsewhere; the SDK's migration guide suggests such an
 * alias for zod-3 monorepos).
 *   node --import tsx/esm bench/server/sdk-server.ts stdio|http [port]
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  localhostHostValidation,
  localhostOriginValidation,
  toNodeHandler,
} from "@modelcontextprotocol/node";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod4";
import { search_devices } from "../../examples/smart-home/tools.ts";

const device = z.object({
  id: z.string().describe("Short id shown to users."),
  fullId: z.string().describe("Full device id: pass this to execute_commands."),
  name: z.string(),
  room: z.string(),
  type: z.string(),
  capabilities: z.array(z.string()),
});

export function createSdkServer(): McpServer {
  const server = new McpServer({ name: "smart-home", version: "1.0.0" });
  server.registerTool(
    "search_devices",
    {
      description:
        'Search devices by natural-language query, e.g. "客厅 灯" (room and device type).\nReturns the matching devices with the ids execute_commands needs.',
      inputSchema: z.object({
        query: z.string().describe("Natural language search query"),
        limit: z.number().int().min(1).max(50).default(5).describe("Maximum number of devices to return"),
      }),
      // A non-object output schema (allowed since 2026-07-28): the SDK sends the array as
      // itself to 2026-07-28 clients and wraps it as `{ result }` for 2025 ones, as mcp-gen does.
      outputSchema: z.array(device),
      annotations: { readOnlyHint: true },
    },
    async ({ query, limit }) => {
      const result = await search_devices(query, limit);
      return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result };
    },
  );
  return server;
}

const mode = process.argv[2];
if (mode === "stdio") {
  serveStdio(createSdkServer);
} else if (mode === "http") {
  const handler = toNodeHandler(createMcpHandler(createSdkServer));
  const validateHost = localhostHostValidation();
  const validateOrigin = localhostOriginValidation();
  const http = createServer((req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    void handler(req, res);
  });
  http.listen(Number(process.argv[3] ?? 0), "127.0.0.1", () => {
    process.stderr.write(`sdk: listening on http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp\n`);
  });
}
