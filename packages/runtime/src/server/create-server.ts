import { randomUUID } from "node:crypto";
import {
  type JSONRPCRequest,
  type ProtocolEra,
  ProtocolErrorCode,
  type Result,
  Server,
  type ServerContext,
  type StandardSchemaV1,
  type Transport,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { Span } from "@opentelemetry/api";
import { type OutcomeNote, outcomeOf, requestFields } from "./call-log.ts";
import { type CallEnvironment, checkArguments, toolTarget } from "./call-tool.ts";
import { catalogOf } from "./catalog.ts";
import { complete } from "./completions.ts";
import { Connections, type ListenRelay } from "./connections.ts";
import { execute } from "./execute.ts";
import { DEFAULT_MAX_ARGUMENT_DEPTH } from "./guard.ts";
import { legacyRequestChannel } from "./input/request-channel.ts";
import type { ServerManifest } from "./manifest.ts";
import { logToStderr, type ServerOptions } from "./options.ts";
import { parkedCalls } from "./parked.ts";
import { getPrompt } from "./prompts.ts";
import { noRuntimeCompiler, protocolError } from "./protocol.ts";
import { readResource, type Subject } from "./resources.ts";
import { scopedListing } from "./scoped-listing.ts";
import { createTasks } from "./tasks.ts";
import { createToolContext } from "./tool-context.ts";
import { endToolSpan, traceToolCall } from "./tracing.ts";

export { unwrapSchema } from "./catalog.ts";

/** Builds one SDK `Server` for the era a connection (or, on HTTP, a request) negotiated. */
export interface ServerFactory {
  (context?: { era?: ProtocolEra; requestInfo?: unknown }): Server;
  /**
   * Serves another manifest (same server name) from now on and tells every connection this
   * factory serves (2025 sessions and stdio connections; 2026-07-28 HTTP clients listen through
   * a relay: see `relay`) that its tool list changed, and its resource and prompt lists when
   * they differ. Needs `listChanged: true`.
   */
  update(manifest: ServerManifest): void;
  /**
   * Sends `notifications/resources/updated` for `uri` to every client subscribed to it: 2025
   * connections that sent `resources/subscribe` for it, 2026-07-28 clients listening for it.
   */
  notifyResourceUpdated(uri: string): void;
  /** Also tells these listeners (the `notify` of `createMcpHandler`, for 2026-07-28 HTTP clients) of every change. */
  relay(relay: ListenRelay): void;
  /** Whether a request of this method is served now to a client of `era` (its capability is advertised). */
  serves(method: string, era: ProtocolEra): boolean;
}

/**
 * Builds the factory the official SDK's entries (`serveStdio`, `createMcpHandler`) call for
 * every connection or request: each call returns a low-level SDK `Server` for one protocol
 * era, answering tools, resources, prompts and completions from the manifest. Listings are
 * computed once per era; nothing is compiled at run time.
 *
 * @example
 * import { createMcpHandler } from "@modelcontextprotocol/server";
 * import { createServerFactory } from "@mcp-gen/runtime/server";
 * const handler = createMcpHandler(createServerFactory(manifest));
 */
export function createServerFactory(manifest: ServerManifest, options: ServerOptions = {}): ServerFactory {
  let catalog = catalogOf(manifest, options);
  const report = options.onError ?? logToStderr;
  /** Servers of live connections (stdio, 2025 HTTP sessions), told of changes; per-request HTTP servers are not. */
  const connections = new Connections(report);
  const limits = { maxDepth: options.maxArgumentDepth ?? DEFAULT_MAX_ARGUMENT_DEPTH };
  const maskErrors = options.maskErrors ?? false;
  const parked = parkedCalls(options);
  const notifyResourceUpdated = (uri: string) => connections.resourceUpdated(uri);
  const tasks = createTasks(options.tasks);

  const factory = (context?: { era?: ProtocolEra; requestInfo?: unknown }): Server => {
    const era = context?.era ?? "legacy";
    const server = new Server(catalog.info, {
      capabilities: era === "modern" ? catalog.modernCapabilities : catalog.capabilities,
      jsonSchemaValidator: noRuntimeCompiler,
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    });
    server.onerror = (error) => report({ kind: "protocol", error });
    const perRequest = context?.requestInfo !== undefined;
    if (!perRequest) connections.add(server, era);
    const connectionId = randomUUID();
    /** Whose tasks a request sees: a 2025 session's (or connection's) own; on 2026-07-28 whoever has the id. */
    const ownerOf = (ctx: ServerContext) =>
      era === "modern" ? undefined : (ctx.sessionId ?? (perRequest ? undefined : connectionId));

    /** What serving one request needs; `subject` names what runs (its context's `toolName`). */
    const environment = (
      ctx: ServerContext,
      subject: Subject | { kind: "tool"; name: string; uri?: undefined },
      timeoutMs?: number,
    ): CallEnvironment => ({
      era,
      limits,
      maskErrors,
      timeoutMs,
      requestSignal: ctx.mcpReq.signal,
      request: ctx,
      context: (signal, link) =>
        createToolContext({
          server,
          era,
          toolName: subject.name,
          kind: subject.kind,
          ...(subject.uri !== undefined ? { uri: subject.uri } : {}),
          link,
          signal,
          notifyResourceUpdated,
        }),
      channel: (link) => (era === "modern" ? parked.channel(link) : legacyRequestChannel(server, link)),
      report,
    });

    /**
     * Serves one call (`run`) and, with `onCall`, records it once answered: name, duration,
     * outcome (from the result, or what the call noted), era, principal, session.
     */
    const observed = async (
      kind: "tool" | "resource" | "prompt",
      params: unknown,
      ctx: ServerContext,
      run: (note: OutcomeNote) => Promise<Result>,
    ): Promise<Result> => {
      const onCall = options.onCall;
      if (!onCall && kind !== "tool") return run({});
      const note: OutcomeNote = {};
      // The record's time and duration only when someone reads the record (`onCall`).
      const time = onCall ? new Date().toISOString() : "";
      const started = onCall ? performance.now() : 0;
      const { name, uri, arguments: args } = (params ?? {}) as Record<string, unknown>;
      const fields = requestFields(ctx, era);
      const finish = (settled: { ok: true; value: Result } | { ok: false; error: unknown }, span?: Span) => {
        const outcome = outcomeOf(settled, note);
        if (span) endToolSpan(span, outcome, settled.ok ? undefined : settled.error);
        if (!onCall) return;
        onCall({
          time,
          kind,
          name: String((kind === "resource" ? uri : name) ?? ""),
          durationMs: Math.round((performance.now() - started) * 1000) / 1000,
          outcome,
          ...fields,
          ...(options.logArguments && args !== undefined ? { arguments: args } : {}),
        });
      };
      const settle = async (span?: Span) => {
        try {
          const value = await run(note);
          finish({ ok: true, value }, span);
          return value;
        } catch (error) {
          finish({ ok: false, error }, span);
          throw error;
        }
      };
      return kind === "tool" ? traceToolCall(String(name), fields, settle) : settle();
    };

    const callToolRequest = async (
      params: unknown,
      ctx: ServerContext,
      note: OutcomeNote,
    ): Promise<Result> => {
      const { name, arguments: args } = (params ?? {}) as { name?: unknown; arguments?: unknown };
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
      const env = { ...environment(ctx, { kind: "tool", name }, timeoutOf(name, options)), note };
      const checked = checkArguments(tool, args, env);
      const target = toolTarget(tool);
      const call = {
        tool,
        target,
        checked,
        env,
        params: params as Record<string, unknown>,
        ctx,
        era,
        server,
        owner: ownerOf(ctx),
      };
      const asTask = tasks.call(call);
      if (asTask) return asTask;
      if (!checked.ok) return checked.result;
      const toTask = era === "modern" ? tasks.deferred(call) : undefined;
      return execute({ target, args: checked.args, env, parked, ...(toTask ? { toTask } : {}) });
    };

    /** 2025 `resources/subscribe`/`unsubscribe` (the 2026-07-28 codec refuses both: clients listen instead). */
    const subscription = (method: string, params: unknown): Result => {
      const uri = (params as { uri?: unknown } | undefined)?.uri;
      if (typeof uri !== "string") {
        throw protocolError(ProtocolErrorCode.InvalidParams, `Invalid params: ${method} takes a string uri`);
      }
      if (method === "resources/subscribe") connections.subscribe(server, uri);
      else connections.unsubscribe(server, uri);
      return {};
    };

    // Every method is answered by the fallback handler: the SDK hands it the request as its
    // transport parsed it, where registered handlers would parse every call twice more with zod
    // (and its result once), work the generated validators already do. Capabilities are checked
    // here for the same reason (the SDK checks them only for registered handlers).
    server.fallbackRequestHandler = async (request: JSONRPCRequest, ctx: ServerContext): Promise<Result> => {
      const { method, params } = request;
      // The manifest of now: `update()` may have replaced the one this server was built with.
      const current = catalog;
      const listings = current.listings[era];
      if (!current.serves(method, era))
        throw protocolError(ProtocolErrorCode.MethodNotFound, "Method not found");
      const env = (subject: Subject) => environment(ctx, subject);
      switch (method) {
        case "tools/list":
          return (
            options.filterToolsByScope
              ? scopedListing(listings.tools, current.tools, ctx.http?.authInfo)
              : listings.tools
          ) as Result;
        case "tools/call":
          return observed("tool", params, ctx, (note) => callToolRequest(params, ctx, note));
        case "resources/list":
          return listings.resources as Result;
        case "resources/templates/list":
          return listings.resourceTemplates as Result;
        case "resources/read":
          return observed("resource", params, ctx, () =>
            readResource(current.resources, params, env, parked),
          );
        case "resources/subscribe":
        case "resources/unsubscribe":
          return subscription(method, params);
        case "prompts/list":
          return listings.prompts as Result;
        case "prompts/get":
          return observed("prompt", params, ctx, () => getPrompt(current.prompts, params, env, parked));
        case "tasks/get":
        case "tasks/result":
        case "tasks/list":
        case "tasks/cancel":
        case "tasks/update":
          return tasks.request(method, params, { era, ctx, owner: ownerOf(ctx) });
        default:
          return complete({ prompts: current.prompts, templates: current.resources.byTemplate }, params, {
            maskErrors,
            report,
          });
      }
    };
    if (era === "modern") {
      // `tasks/get` and `tasks/cancel` are 2025 methods the 2026-07-28 codec refuses unless a
      // handler with its own schema claims them (SEP-2663 reuses the names in its extension).
      for (const method of ["tasks/get", "tasks/cancel"] as const) {
        server.setRequestHandler(method, { params: passThrough }, (params, ctx) =>
          server.fallbackRequestHandler!(
            { jsonrpc: "2.0", id: ctx.mcpReq.id, method, params } as JSONRPCRequest,
            ctx,
          ),
        );
      }
    }
    return server;
  };
  return Object.assign(factory, {
    update(next: ServerManifest) {
      if (!options.listChanged) {
        throw new Error(
          "mcp-gen: the tools of a server can change only when it is served with listChanged: true",
        );
      }
      const before = catalog.listings.legacy;
      catalog = catalogOf(next, options);
      const after = catalog.listings.legacy;
      connections.listsChanged({
        tools: true,
        resources:
          !sameJson(before.resources, after.resources) ||
          !sameJson(before.resourceTemplates, after.resourceTemplates),
        prompts: !sameJson(before.prompts, after.prompts),
      });
    },
    notifyResourceUpdated,
    relay: (relay: ListenRelay) => connections.relay(relay),
    serves: (method: string, era: ProtocolEra) => catalog.serves(method, era),
  });
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
    notifyResourceUpdated: (uri) => factory.notifyResourceUpdated(uri),
  };
}

/** Whether two listings are the same JSON (what `update()` announces as changed). */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Takes params as they are: the fallback handler checks them. */
const passThrough: StandardSchemaV1<Record<string, unknown>> = {
  "~standard": {
    version: 1,
    vendor: "mcp-gen",
    validate: (value) => ({ value: value as Record<string, unknown> }),
  },
};

function timeoutOf(tool: string, options: ServerOptions): number | undefined {
  const own = options.toolTimeoutsMs && Object.hasOwn(options.toolTimeoutsMs, tool);
  return own ? options.toolTimeoutsMs![tool] : options.timeoutMs;
}
