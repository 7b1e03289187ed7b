import type { Transport } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { createServerFactory } from "./create-server.ts";
import type { ServerManifest } from "./manifest.ts";
import { logToStderr, type McpGenServerOptions } from "./options.ts";

/** What `createServer` returns: an MCP server for both protocol eras, ready for any transport. */
export interface McpGenServer {
  /**
   * Serves one connection over a transport (stdio, one side of `InMemoryTransport.createLinkedPair()`
   * …). The connection's first message decides its era: `initialize` gives the 2025 protocol,
   * `server/discover` or a 2026-07-28 request the current one.
   */
  connect(transport: Transport): Promise<void>;
  /** Closes every connection this server serves. */
  close(): Promise<void>;
  /** Serves another manifest and tells every connection what changed (`listChanged: true` needed). */
  update(manifest: ServerManifest): void;
  /** Tells the clients subscribed to `uri` that the resource changed (`notifications/resources/updated`). */
  notifyResourceUpdated(uri: string): void;
}

/**
 * Builds an MCP server for a generated manifest, ready to `connect()` to any SDK transport;
 * `serve()` does this for stdio and HTTP. Each connection is served by a fresh SDK `Server`
 * for the era it negotiated (`createServerFactory`).
 *
 * @example
 * import { connectInMemory } from "@mcp-gen/runtime/client";
 * import { manifest } from "../generated/smart-home/server.ts";
 * const { client } = await connectInMemory(createServer(manifest));
 */
export function createServer(manifest: ServerManifest, options: McpGenServerOptions = {}): McpGenServer {
  const factory = createServerFactory(manifest, options);
  const report = options.onError ?? logToStderr;
  const open = new Set<{ close(): Promise<void> }>();
  return {
    async connect(transport) {
      const handle = serveStdio(factory, {
        transport,
        onerror: (error) => report({ kind: "protocol", error }),
      });
      open.add(handle);
      const closed = transport.onclose;
      transport.onclose = () => {
        open.delete(handle);
        closed?.();
      };
    },
    async close() {
      await Promise.all([...open].map((handle) => handle.close()));
      open.clear();
    },
    update: (next) => factory.update(next),
    notifyResourceUpdated: (uri) => factory.notifyResourceUpdated(uri),
  };
}
