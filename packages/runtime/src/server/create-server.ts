import {
  type JSONRPCRequest,
  type ProtocolEra,
  Server,
  type StandardSchemaV1,
} from "@modelcontextprotocol/server";
import type { CallEnvironment } from "./call-tool.ts";
import { type Catalog, catalogOf } from "./catalog.ts";
import { Connections, type ListenRelay } from "./connections.ts";
import { type Features, lazyParkedCalls, loadFeatures } from "./features.ts";
import { DEFAULT_MAX_ARGUMENT_DEPTH } from "./guard.ts";
import type { ServerManifest } from "./manifest.ts";
import { type ListsChanged, logToStderr, type McpGenServerOptions } from "./options.ts";
import { noRuntimeCompiler } from "./protocol.ts";
import { requestHandler } from "./request-handler.ts";

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
export function createServerFactory(
  manifest: ServerManifest,
  options: McpGenServerOptions = {},
): ServerFactory {
  const report = options.onError ?? logToStderr;
  /** Servers of live connections (stdio, 2025 HTTP sessions), told of changes; per-request HTTP servers are not. */
  const connections = new Connections(report);
  const limits = { maxDepth: options.maxArgumentDepth ?? DEFAULT_MAX_ARGUMENT_DEPTH };
  const maskErrors = options.maskErrors ?? false;
  const parked = lazyParkedCalls(options);
  /**
   * Tool contexts, once a catalog with a target that takes one has loaded its features (set
   * before any request of that catalog runs: requests wait for the same promise, after this).
   */
  let contextSupport: Features["context"];
  const support = () => {
    if (!contextSupport) throw new Error("mcp-gen: a tool context was asked for before its module loaded");
    return contextSupport;
  };
  const notifyResourceUpdated = (uri: string) => connections.resourceUpdated(uri);
  /** What tools report: to every replica through the bus when shared, else to this server's subscribers. */
  const toolNotifies = options.publishResourceUpdated ?? notifyResourceUpdated;
  /** Tells the task service which tools this replica serves now (what a takeover runs again). */
  const adopt = (next: ReturnType<typeof served>) => {
    if (next.catalog.uses.context) parked.preload();
    void Promise.resolve(next.features).then(
      (features) => {
        contextSupport ??= features.context;
        features.tasks?.adopt({
          targets: next.catalog.targets,
          limits,
          maskErrors,
          report,
          notifyResourceUpdated: toolNotifies,
        });
      },
      (error: unknown) =>
        // told once, when the server is built (a malformed resource template …); the requests that
        // need the features answer with the same error
        report({ kind: "protocol", error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return next;
  };
  let now = adopt(served(manifest, options));
  const listsChanged = (changed: ListsChanged) => connections.listsChanged(changed);
  options.sharedLists?.listen(listsChanged);

  const factory = (context?: { era?: ProtocolEra; requestInfo?: unknown }): Server => {
    const era = context?.era ?? "legacy";
    const { catalog } = now;
    const server = new Server(catalog.info, {
      capabilities: era === "modern" ? catalog.modernCapabilities : catalog.capabilities,
      jsonSchemaValidator: noRuntimeCompiler,
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    });
    server.onerror = (error) => report({ kind: "protocol", error });
    const perRequest = context?.requestInfo !== undefined;
    if (!perRequest) connections.add(server, era);
    /**
     * This connection's id, made at its first call (2025 only): Web Crypto's global `randomUUID`,
     * not `node:crypto`, whose import costs a start 2–5 ms (bench/README.md, "Cold start, fourth round").
     */
    let connectionId: string | undefined;
    server.fallbackRequestHandler = requestHandler({
      era,
      server,
      options,
      connections,
      parked,
      report,
      current: () => now,
      /** Whose tasks a request sees: a 2025 session's (or connection's) own; on 2026-07-28 whoever has the id. */
      ownerOf: (ctx) => {
        if (era === "modern") return undefined;
        if (ctx.sessionId !== undefined || perRequest) return ctx.sessionId;
        connectionId ??= globalThis.crypto.randomUUID();
        return connectionId;
      },
      environment: (ctx, subject, call): CallEnvironment => ({
        era,
        limits,
        maskErrors,
        timeoutMs: call?.timeoutMs,
        ...(call?.note ? { note: call.note } : {}),
        requestSignal: ctx.mcpReq.signal,
        request: ctx,
        context: (signal, link) =>
          support().createToolContext({
            server,
            era,
            toolName: subject.name,
            kind: subject.kind,
            ...(subject.uri !== undefined ? { uri: subject.uri } : {}),
            link,
            signal,
            notifyResourceUpdated: toolNotifies,
          }),
        // Only a target that takes a context asks its client anything.
        channel: (link) =>
          !link.target.usesContext
            ? undefined
            : era === "modern"
              ? parked.channel(link)
              : support().legacyRequestChannel(server, link),
        report,
      }),
    });
    if (era === "modern") claimTaskMethods(server);
    return server;
  };
  return Object.assign(factory, {
    update(next: ServerManifest) {
      if (!options.listChanged) {
        throw new Error(
          "mcp-gen: the tools of a server can change only when it is served with listChanged: true",
        );
      }
      const before = now.catalog.listings.legacy;
      now = adopt(served(next, options, now.features));
      const after = now.catalog.listings.legacy;
      const changed = {
        tools: true,
        resources:
          !sameJson(before.resources, after.resources) ||
          !sameJson(before.resourceTemplates, after.resourceTemplates),
        prompts: !sameJson(before.prompts, after.prompts),
      };
      // Shared state: every replica (this one too) hears it from the bus and tells its clients.
      if (options.sharedLists) options.sharedLists.publish(changed);
      else listsChanged(changed);
    },
    notifyResourceUpdated,
    relay: (relay: ListenRelay) => connections.relay(relay),
    serves: (method: string, era: ProtocolEra) => now.catalog.serves(method, era),
  });
}

/**
 * A catalog and its features: the modules it uses start loading now (at server creation, or at
 * `update()`); requests wait for them once, then read the loaded value.
 */
function served(
  manifest: ServerManifest,
  options: McpGenServerOptions,
  previous?: Features | Promise<Features>,
): { catalog: Catalog; features: Features | Promise<Features> } {
  const catalog = catalogOf(manifest, options);
  const state: { catalog: Catalog; features: Features | Promise<Features> } = { catalog, features: {} };
  const loading = Promise.resolve(previous).then((before) =>
    loadFeatures({
      catalog,
      manifest,
      filterToolsByScope: options.filterToolsByScope ?? false,
      tasks: options.tasks,
      ...(before ? { previous: before } : {}),
    }),
  );
  state.features = loading;
  void loading.then((features) => {
    state.features = features;
  }, ignoreHere);
  return state;
}

/** A feature module that failed to load: the requests that need it await it and answer with the error. */
const ignoreHere = () => {};

/**
 * `tasks/get` and `tasks/cancel` are 2025 methods the 2026-07-28 codec refuses unless a handler
 * with its own schema claims them (SEP-2663 reuses the names in its extension).
 */
function claimTaskMethods(server: Server): void {
  for (const method of ["tasks/get", "tasks/cancel"] as const) {
    server.setRequestHandler(method, { params: passThrough }, (params, ctx) =>
      server.fallbackRequestHandler!(
        { jsonrpc: "2.0", id: ctx.mcpReq.id, method, params } as JSONRPCRequest,
        ctx,
      ),
    );
  }
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
