import { readFileSync } from "node:fs";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";

/**
 * An MCP server (the SDK's low-level `Server`) whose tools are whatever `readTools()` returns at
 * each `tools/list`, served `pageSize` at a time; `tools/call` answers with the arguments as text.
 * Pull tests change the tools between pulls to see drift.
 */
export function createStaticServer(readTools: () => Tool[], pageSize = Number.POSITIVE_INFINITY): Server {
  const server = new Server({ name: "static", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const tools = readTools();
    const start = Number(request.params?.cursor ?? 0);
    const end = start + pageSize;
    return { tools: tools.slice(start, end), ...(end < tools.length ? { nextCursor: String(end) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, (request) => ({
    content: [{ type: "text", text: JSON.stringify(request.params.arguments ?? {}) }],
  }));
  return server;
}

/** The tools of a JSON file (read again at every listing). */
export function toolsFromFile(file: string): () => Tool[] {
  return () => JSON.parse(readFileSync(file, "utf8")) as Tool[];
}

/**
 * Serves a static server over Streamable HTTP on 127.0.0.1 (stateless: one server per request),
 * requiring `Authorization: Bearer <token>` when a token is given.
 */
export async function serveStaticHttp(options: {
  readTools: () => Tool[];
  token?: string;
}): Promise<{ url: string; close(): Promise<void> }> {
  const http: HttpServer = createHttpServer(async (req, res) => {
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":"unauthorized"}');
      return;
    }
    if (req.url !== "/mcp") {
      res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not Found</h1>");
      return;
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = createStaticServer(options.readTools);
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
}
