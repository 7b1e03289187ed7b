import type { Transport } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { ServerManifest } from "./manifest.ts";
import { createServer } from "./mcp-gen-server.ts";
import type { McpGenServerOptions } from "./options.ts";
import type { RunningServer } from "./serve.ts";

/**
 * `@mcp-gen/runtime/server/stdio`: serves a manifest over stdio, and nothing in this module's
 * imports leads to the HTTP transport, hono, authorization or the MCP client. `serve()` of
 * `@mcp-gen/runtime/server` does the same when asked for stdio, but it can also start HTTP: a
 * bundler follows that `import()` and puts HTTP into every bundle. Import this entry in a server
 * meant to be bundled into one file (see docs/guide/deploying.md). (Named apart from the SDK's
 * `serveStdio(factory)` of `@modelcontextprotocol/server/stdio`, which it calls with the manifest's
 * server factory.)
 *
 * @example
 * import { serveOverStdio } from "@mcp-gen/runtime/server/stdio";
 * import { manifest } from "./generated/smart-home/server.js";
 * await serveOverStdio(manifest);
 */
export async function serveOverStdio(
  manifest: ServerManifest,
  options: McpGenServerOptions = {},
): Promise<RunningServer> {
  const running = await serveTransport(manifest, options, new StdioServerTransport());
  process.stdin.once("end", () => void running.close());
  return running;
}

/**
 * Serves one connection with the SDK's `serveStdio`, which reads the era from the first
 * message: `initialize` pins a 2025 server, `server/discover` or a 2026-07-28 request a
 * current one (both from the same factory).
 */
export async function serveTransport(
  manifest: ServerManifest,
  options: McpGenServerOptions,
  transport: Transport,
): Promise<RunningServer> {
  const server = createServer(manifest, options);
  await server.connect(transport);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const onclose = transport.onclose;
  transport.onclose = () => {
    onclose?.();
    resolveClosed();
  };
  const close = async () => {
    await server.close();
    resolveClosed();
  };
  return {
    url: undefined,
    closed,
    close,
    drain: async () => {
      await close();
      return { cutOff: 0 };
    },
    update: (next) => server.update(next),
    notifyResourceUpdated: (uri) => server.notifyResourceUpdated(uri),
  };
}
