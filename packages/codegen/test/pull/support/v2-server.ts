import { fromJsonSchema, McpServer } from "@modelcontextprotocol/server";
import { serveSdkHttp } from "../../support/sdk-http.ts";

/**
 * A server on the official SDK v2 `McpServer`, speaking MCP 2026-07-28 and the 2025 protocol
 * (the SDK picks the era per connection or request). Two of its tools return non-object values:
 * 2026-07-28 clients get their output schemas as they are, 2025 clients the SDK's `{ result }`
 * projection (references moved under `#/properties/result`), which `mcp-gen pull` must record
 * as the same contract. `echo` declares an `x-mcp-header` whose name is invalid (a space): a
 * 2026-07-28 client's `listTools()` over HTTP leaves such a tool out, pull must keep it.
 */
export function createV2Server(): McpServer {
  const server = new McpServer({ name: "v2-fixture", version: "2.0.0" });
  const device = {
    type: "object",
    properties: {
      id: { type: "string" },
      room: { type: "string" },
      // A pointer into the natural schema: the 2025 projection moves it under #/properties/result.
      twin: { $ref: "#/items" },
    },
    required: ["id", "room"],
  };
  server.registerTool(
    "list_devices",
    {
      description: "Devices of a room.",
      inputSchema: fromJsonSchema({ type: "object", properties: { room: { type: "string" } } }),
      outputSchema: fromJsonSchema({
        type: "array",
        items: { $ref: "#/$defs/Device" },
        $defs: { Device: device },
      }),
      annotations: { readOnlyHint: true },
    },
    async () => ({ content: [{ type: "text", text: "[]" }], structuredContent: [] }),
  );
  server.registerTool(
    "count",
    {
      inputSchema: fromJsonSchema({ type: "object" }),
      outputSchema: fromJsonSchema({ type: "integer", minimum: 0 }),
    },
    async () => ({ content: [{ type: "text", text: "0" }], structuredContent: 0 }),
  );
  server.registerTool(
    "status",
    {
      inputSchema: fromJsonSchema({ type: "object" }),
      outputSchema: fromJsonSchema({
        type: "object",
        properties: { ok: { type: "boolean" } },
        required: ["ok"],
      }),
    },
    async () => ({ content: [{ type: "text", text: "ok" }], structuredContent: { ok: true } }),
  );
  server.registerTool(
    "echo",
    {
      // The SDK's JSON Schema type has no x-mcp-header keyword.
      inputSchema: fromJsonSchema({
        type: "object",
        properties: { text: { type: "string", "x-mcp-header": "Bad Name" } },
        required: ["text"],
      } as Parameters<typeof fromJsonSchema>[0]),
    },
    async () => ({ content: [{ type: "text", text: "echo" }] }),
  );
  return server;
}

/** Serves {@link createV2Server} over Streamable HTTP on 127.0.0.1 (`/mcp`), both eras, with the SDK's handler. */
export async function serveV2Http(): Promise<{ url: string; close(): Promise<void> }> {
  return serveSdkHttp(() => createV2Server());
}
