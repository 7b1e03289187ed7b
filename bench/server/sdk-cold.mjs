// Cold-start baseline: bench/server/sdk-server.ts as compiled JavaScript, the SDK v2's McpServer
// with the same zod 4 schemas served by serveStdio, both eras from one factory. The handler is a
// stub (the smart-home registry is TypeScript); cold start is measured up to the opening answer,
// before any call.
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod4";

const device = z.object({
  id: z.string().describe("Short id shown to users."),
  fullId: z.string().describe("Full device id: pass this to execute_commands."),
  name: z.string(),
  room: z.string(),
  type: z.string(),
  capabilities: z.array(z.string()),
});

function createServer() {
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
      outputSchema: z.array(device),
      annotations: { readOnlyHint: true },
    },
    async () => ({ content: [{ type: "text", text: "[]" }], structuredContent: [] }),
  );
  return server;
}

serveStdio(createServer);
