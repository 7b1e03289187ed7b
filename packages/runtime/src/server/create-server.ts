import { RESULT_WRAPPED_META } from "@mcp-gen/schema/contract";
import {
  type JSONRPCRequest,
  ProtocolErrorCode,
  type Result,
  Server,
  type ServerContext,
  type Transport,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { type CallEnvironment, callTool } from "./call-tool.ts";
import type { ManifestTool, ServerManifest } from "./manifest.ts";
import { logToStderr, type ServerOptions } from "./options.ts";
import { parkedCalls } from "./parked.ts";
import { noRuntimeCompiler, type ProtocolEra, protocolError } from "./protocol.ts";
import { scopedListing } from "./scoped-listing.ts";
import { createToolContext } from "./tool-context.ts";

/** Builds one SDK `Server` for the era a connection (or, on HTTP, a request) negotiated. */
export interface ServerFactory {
  (context?: { era?: ProtocolEra; requestInfo?: unknown }): Server;
  /**
   * Serves another manifest's tools from now on (same server name) and sends
   * `notifications/tools/list_changed` on every connection this factory serves (2025 sessions and
   * stdio connections; 2026-07-28 HTTP clients listen through the entry: see `serve()`). Needs
   * `listChanged: true`.
   */
  update(manifest: ServerManifest): void;
}

/**
 * Builds the factory the official SDK's entries (`serveStdio`, `createMcpHandler`) call for
 * every connection or request: each call returns a low-level SDK `Server` for one protocol
 * era, answering `tools/list` and `tools/call` from the manifest. Listings are computed once
 * per era; nothing is compiled at run time.
 *
 * @example
 * import { createMcpHandler } from "@modelcontextprotocol/server";
 * import { createServerFactory } from "@mcp-gen/runtime/server";
 * const handler = createMcpHandler(createServerFactory(manifest));
 */
export function createServerFactory(manifest: ServerManifest, options: ServerOptions = {}): ServerFactory {
  let catalog = catalogOf(manifest, options);
  /** Servers of live connections (stdio, 2025 HTTP sessions), told when the tools change; per-request HTTP servers are not. */
  const connections = new Set<Server>();
  const report = options.onError ?? logToStderr;
  const limits = { maxDepth: options.maxArgumentDepth ?? 64 };
  const parked = parkedCalls(options);
  const info = { name: manifest.server, version: options.version ?? manifest.version ?? "0.0.0" };

  const factory = (context?: { era?: ProtocolEra; requestInfo?: unknown }): Server => {
    const era = context?.era ?? "legacy";
    const server = new Server(info, {
      capabilities: { tools: options.listChanged ? { listChanged: true } : {}, logging: {} },
      jsonSchemaValidator: noRuntimeCompiler,
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    });
    server.onerror = (error) => report({ kind: "protocol", error });
    if (options.listChanged && context?.requestInfo === undefined) {
      connections.add(server);
      server.onclose = () => connections.delete(server);
    }

    // tools/list and tools/call are answered by the fallback handler: the SDK hands it the request
    // as its transport parsed it, where registered handlers would parse every call twice more with
    // zod (and its result once), work the generated validators already do.
    server.fallbackRequestHandler = async (request: JSONRPCRequest, ctx: ServerContext): Promise<Result> => {
      if (request.method === "tools/list") {
        const listing = catalog.listings[era];
        return (
          options.filterToolsByScope ? scopedListing(listing, catalog.tools, ctx.http?.authInfo) : listing
        ) as Result;
      }
      if (request.method !== "tools/call")
        throw protocolError(ProtocolErrorCode.MethodNotFound, "Method not found");
      const params = request.params as { name?: unknown; arguments?: unknown } | undefined;
      const name = params?.name;
      const args = params?.arguments;
      if (
        typeof name !== "string" ||
        (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args)))
      ) {
        throw protocolError(
          ProtocolErrorCode.InvalidParams,
          "Invalid params: tools/call takes a string name and an arguments object",
        );
      }
      const tool = catalog.tools.get(name);
      if (!tool)
        throw protocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(name)}`);
      const env: CallEnvironment = {
        era,
        limits,
        maskErrors: options.maskErrors ?? false,
        timeoutMs: timeoutOf(name, options),
        requestSignal: ctx.mcpReq.signal,
        request: ctx,
        context: (signal, link) => createToolContext({ server, era, toolName: name, link, signal, parked }),
        report,
      };
      return era === "modern" ? parked.serve(tool, args, env) : callTool(tool, args, env);
    };
    return server;
  };
  return Object.assign(factory, {
    update(next: ServerManifest) {
      if (!options.listChanged) {
        throw new Error(
          "mcp-gen: the tools of a server can change only when it is served with listChanged: true",
        );
      }
      catalog = catalogOf(next, options);
      for (const server of connections) {
        server
          .sendToolListChanged()
          .catch((error: unknown) => report({ kind: "protocol", error: error as Error }));
      }
    },
  });
}

/** The tools by name and the listing of each era. */
function catalogOf(manifest: ServerManifest, options: ServerOptions) {
  return {
    tools: new Map<string, ManifestTool>(manifest.tools.map((t) => [t.definition.name, t])),
    listings: { legacy: legacyListing(manifest), modern: modernListing(manifest, options) },
  };
}

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
  /** Serves another manifest's tools and tells every connection (`listChanged: true` needed). */
  update(manifest: ServerManifest): void;
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
export function createServer(manifest: ServerManifest, options: ServerOptions = {}): McpGenServer {
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
  };
}

/** 2025 clients: structured results of non-object type travel wrapped, as `{ result }`. */
function legacyListing(manifest: ServerManifest): { tools: unknown[] } {
  return {
    tools: manifest.tools.map((t) =>
      t.resultWrapped
        ? {
            ...t.definition,
            // A wrapped result is marked in _meta, so `mcp-gen pull` from this server unwraps it as well.
            _meta: { ...(t.definition._meta as object | undefined), [RESULT_WRAPPED_META]: true },
          }
        : t.definition,
    ),
  };
}

/** 2026-07-28 clients: `structuredContent` may be any JSON value, so results go out as themselves. */
function modernListing(manifest: ServerManifest, options: ServerOptions): object {
  return {
    tools: manifest.tools.map((t) =>
      t.resultWrapped && t.definition.outputSchema
        ? { ...t.definition, outputSchema: unwrapSchema(t.definition.outputSchema) }
        : t.definition,
    ),
    ...(options.listCache
      ? { ttlMs: options.listCache.ttlMs, cacheScope: options.listCache.scope ?? "private" }
      : {}),
  };
}

/**
 * The schema of `result` in a wrapped output schema, as a root schema of its own: definitions
 * of the wrapper (`$defs`, `definitions`) move along so `$ref`s keep resolving.
 */
export function unwrapSchema(wrapped: { readonly [keyword: string]: unknown }): Record<string, unknown> {
  const properties = wrapped.properties as Record<string, Record<string, unknown>> | undefined;
  const inner = properties?.result;
  if (!inner) return { ...wrapped };
  const root: Record<string, unknown> = {};
  if (typeof wrapped.$schema === "string") root.$schema = wrapped.$schema;
  Object.assign(root, inner);
  for (const key of ["$defs", "definitions"]) {
    if (wrapped[key] !== undefined) root[key] = { ...(wrapped[key] as object), ...(inner[key] as object) };
  }
  return root;
}

function timeoutOf(tool: string, options: ServerOptions): number | undefined {
  const own = options.toolTimeoutsMs && Object.hasOwn(options.toolTimeoutsMs, tool);
  return own ? options.toolTimeoutsMs![tool] : options.timeoutMs;
}
