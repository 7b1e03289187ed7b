/**
 * The baseline: the same tool on the official SDK's `McpServer` with zod schemas, as its docs
 * and examples write it. `stdio`, or `http` = the SDK's stateless example pattern (express app,
 * a new McpServer and transport per request).
 *   node --import tsx/esm bench/server/sdk-server.ts stdio|http [port]
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { search_devices } from "../../examples/smart-home/tools.ts";

const device = z.object({
  id: z.string(),
  fullId: z.string(),
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
      description: "Search devices by natural-language query",
      inputSchema: {
        query: z.string().describe("Natural language search query"),
        limit: z.number().int().min(1).max(50).default(5).describe("Maximum number of devices to return"),
      },
      outputSchema: { result: z.array(device) },
    },
    async ({ query, limit }) => {
      const result = await search_devices(query, limit);
      return { content: [{ type: "text", text: JSON.stringify({ result }) }], structuredContent: { result } };
    },
  );
  return server;
}

const mode = process.argv[2];
if (mode === "stdio") {
  await createSdkServer().connect(new StdioServerTransport());
} else if (mode === "http") {
  const { createMcpExpressApp } = await import("@modelcontextprotocol/sdk/server/express.js");
  const { StreamableHTTPServerTransport } = await import(
    "@modelcontextprotocol/sdk/server/streamableHttp.js"
  );
  const app = createMcpExpressApp();
  app.post("/mcp", async (req: any, res: any) => {
    const server = createSdkServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
  });
  const listener = app.listen(Number(process.argv[3] ?? 0), "127.0.0.1", () => {
    process.stderr.write(`sdk: listening on http://127.0.0.1:${listener.address().port}/mcp\n`);
  });
}
