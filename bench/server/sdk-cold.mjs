// Cold-start baseline: a minimal compiled-JavaScript server on the SDK's McpServer with one zod tool.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "smart-home", version: "1.0.0" });
server.registerTool(
  "search_devices",
  { inputSchema: { query: z.string(), limit: z.number().int().min(1).max(50).default(5) } },
  async ({ query, limit }) => ({ content: [{ type: "text", text: `${query} ${limit}` }] }),
);
await server.connect(new StdioServerTransport());
