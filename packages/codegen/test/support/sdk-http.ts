import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, type McpServer } from "@modelcontextprotocol/server";

/**
 * Serves the SDK servers `factory` builds (one per request) over Streamable HTTP on 127.0.0.1 at
 * `/mcp`, both eras (`legacy: "stateless"`), with the SDK's own handler: a third-party server as
 * the tests meet it.
 */
export async function serveSdkHttp(
  factory: () => McpServer,
): Promise<{ url: string; close(): Promise<void> }> {
  const handler = createMcpHandler(factory, { legacy: "stateless" });
  const node = toNodeHandler(handler);
  const http = createHttpServer((req, res) => {
    if (req.url === "/mcp") void node(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      await handler.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(() => resolve(undefined)));
    },
  };
}
