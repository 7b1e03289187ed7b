import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import {
  type AuthInfo,
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
} from "@modelcontextprotocol/server";
import { createServerFactory } from "../create-server.ts";
import type { ServerManifest } from "../manifest.ts";
import { logToStderr, type ServerOptions } from "../options.ts";
import type { RunningServer } from "../serve.ts";
import type { AuthGate } from "./auth/gate.ts";
import { readJsonBody } from "./body.ts";
import { checkRequest, type Refusal } from "./guard.ts";
import {
  checkSessionRoute,
  type HttpOptions,
  isLoopback,
  type ResolvedHttpOptions,
  resolveHttpOptions,
} from "./options.ts";
import { headersByTool, paramHeaderMismatch } from "./param-headers.ts";
import { RateLimiter, SessionTable } from "./sessions.ts";
import { type WebExchange, webExchange } from "./web-exchange.ts";

/**
 * Serves a manifest over Streamable HTTP, both protocol eras on one endpoint. Every request
 * first passes the Host/Origin/token checks and the body limits. Then:
 * - 2026-07-28 requests (self-contained, no session) go to the SDK's `createMcpHandler`, which
 *   builds a server per request from the manifest's factory;
 * - 2025-era requests get a session of their own (ids from `crypto.randomUUID`), or, with
 *   `stateless`, the SDK's stateless handling of the 2025 protocol (a server per request).
 */
export async function serveHttp(
  manifest: ServerManifest,
  serverOptions: ServerOptions,
  httpOptions: HttpOptions,
): Promise<RunningServer> {
  let options!: ResolvedHttpOptions;
  let sessions!: SessionTable<NodeStreamableHTTPServerTransport>;
  let limiter: RateLimiter | undefined;
  const report = serverOptions.onError ?? logToStderr;
  const onerror = (error: Error) => report({ kind: "protocol", error });
  const auth = httpOptions.auth;
  if (auth) checkAuthOptions(httpOptions);
  checkSessionRoute(httpOptions.sessionRoute);
  const route = httpOptions.sessionRoute;
  const sessionId = route ? () => `${route}.${randomUUID()}` : randomUUID;
  const factory = createServerFactory(manifest, {
    ...serverOptions,
    ...(auth && (auth.scopesOnList ?? "filter") === "filter" ? { filterToolsByScope: true } : {}),
  });
  const handler = createMcpHandler(factory, {
    legacy: httpOptions.stateless ? "stateless" : "reject",
    onerror,
  });
  /** The SDK's handler on the exchange's one web `Request`, the body as read (what `toNodeHandler` does, converting once). */
  const viaSdk = async (exchange: WebExchange, req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const authInfo = (req as IncomingMessage & { auth?: AuthInfo }).auth;
    let response: Response;
    try {
      response = await handler.fetch(exchange.request, {
        ...(authInfo !== undefined ? { authInfo } : {}),
        ...(body !== undefined ? { parsedBody: body } : {}),
      });
    } catch (error) {
      onerror(error instanceof Error ? error : new Error(String(error)));
      return refuse(res, { status: 500, code: -32603, message: "Internal error", id: requestIdOf(body) });
    }
    return exchange.send(response);
  };
  // 2026-07-28 clients hear of changes on their `subscriptions/listen` streams, which the handler serves.
  factory.relay(handler.notify);
  let declaredHeaders = headersByTool(manifest);
  let toolScopes = scopesByTool(manifest);
  let gate: AuthGate | undefined;
  /** Who opened each 2025-era session, with `auth`: a session serves only the principal that opened it. */
  const owners = new WeakMap<NodeStreamableHTTPServerTransport, string>();

  // Draining (SIGTERM behind a load balancer): health says so, new requests are turned away, and
  // the requests being answered finish before the server closes.
  let draining = false;
  let answering = 0;
  let drained: (() => void) | undefined;
  const finished = () => {
    answering--;
    if (answering === 0) drained?.();
  };

  /** `readyPath`'s answer: draining, then the application's own check (`http.ready`). */
  const readiness = async (): Promise<"ready" | "draining" | "unavailable"> => {
    if (draining) return "draining";
    if (!options.ready) return "ready";
    try {
      return (await options.ready()) ? "ready" : "unavailable";
    } catch (error) {
      onerror(error instanceof Error ? error : new Error(String(error)));
      return "unavailable";
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "").split("?")[0];
    if (path === options.healthPath && req.method === "GET") {
      res.writeHead(draining ? 503 : 200, {
        "content-type": "application/json",
        "cache-control": "no-store",
      });
      res.end(JSON.stringify({ status: draining ? "draining" : "ok" }));
      return;
    }
    if (path === options.readyPath && req.method === "GET") {
      void readiness().then((status) => {
        res.writeHead(status === "ready" ? 200 : 503, {
          "content-type": "application/json",
          "cache-control": "no-store",
        });
        res.end(JSON.stringify({ status }));
      });
      return;
    }
    // With auth, nothing is served before the gate stands (it needs the port bound).
    if (auth && !gate)
      return refuse(res, { status: 503, code: -32000, message: "Service Unavailable: starting" });
    if (gate?.serveMetadata(req, res, path ?? "")) return;
    if (path !== options.path)
      return refuse(res, { status: 404, code: -32000, message: `Not Found: use ${options.path}` });
    // Draining turns away new requests; answers to the server's own requests (sampling, elicitation)
    // and notifications still come in, since the calls being finished may wait for them.
    if (draining && req.method !== "POST") return refuse(res, SHUTTING_DOWN);
    const refusal = checkRequest(req, options);
    if (refusal) return refuse(res, refusal);
    const wait = limiter?.take(clientOf(req, options.trustProxy), Date.now()) ?? 0;
    if (wait > 0) {
      return refuse(res, {
        status: 429,
        code: -32000,
        message: "Too Many Requests: slow down",
        headers: { "retry-after": String(wait) },
      });
    }
    if (gate) {
      const verified = await gate.authenticate(req);
      if (!verified.ok) return sendResponse(res, verified.response);
      // Where the SDK's entries read the verified token from (`ctx.http.authInfo` in handlers).
      (req as IncomingMessage & { auth?: AuthInfo }).auth = verified.info;
    }
    let body: unknown;
    if (req.method === "POST") {
      const read = await readJsonBody(req, {
        maxBytes: options.maxBodyBytes,
        maxDepth: options.maxJsonDepth,
      });
      if (!read.ok) return refuse(res, read.refusal);
      body = read.value;
      if (draining && carriesRequest(body)) return refuse(res, SHUTTING_DOWN);
      const authInfo = (req as IncomingMessage & { auth?: AuthInfo }).auth;
      const challenge = gate && authInfo && gate.scopeChallenge(body, authInfo);
      if (challenge) return sendResponse(res, challenge);
    }
    // Calls count; streams that only wait for notifications (GET, subscriptions/listen) do not.
    const method = (body as { method?: unknown } | undefined)?.method;
    if (req.method === "POST" && method !== "subscriptions/listen") {
      answering++;
      res.once("close", finished);
    }
    const exchange = webExchange(req, res);
    const legacy = await isLegacyRequest(exchange.request, body);
    if (!legacy) {
      const refusal = modernRefusal(body, req);
      if (refusal) return refuse(res, refusal);
    }
    if (options.stateless || !legacy) return viaSdk(exchange, req, res, body);
    return handleSession(req, res, body);
  };

  /**
   * Checks the SDK leaves to servers built on its low-level `Server`: a method nobody serves is
   * HTTP 404 (2026-07-28 routes on the method), and `Mcp-Param-*` headers must agree with the
   * arguments they mirror (HTTP 400, `-32020`).
   */
  const modernRefusal = (
    body: unknown,
    req: IncomingMessage,
  ): (Refusal & { id: string | number | null }) | undefined => {
    if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
    const { method, params, id } = body as {
      method?: unknown;
      params?: { name?: unknown; arguments?: unknown };
      id?: unknown;
    };
    if (typeof method !== "string" || id === undefined) return undefined;
    const requestId = typeof id === "string" || typeof id === "number" ? id : null;
    if (!MODERN_METHODS.has(method) && !factory.serves(method, "modern")) {
      return { status: 404, code: -32601, message: `Method not found: ${method}`, id: requestId };
    }
    if (method !== "tools/call" || typeof params?.name !== "string") return undefined;
    const declared = declaredHeaders.get(params.name);
    const mismatch = declared && paramHeaderMismatch(declared, params.arguments, req.headers);
    return mismatch
      ? { status: 400, code: -32020, message: `Header mismatch: ${mismatch}`, id: requestId }
      : undefined;
  };

  const handleSession = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.touch(id, Date.now());
      if (!session || (gate && owners.get(session.value) !== ownerOf(req)))
        return refuse(res, { status: 404, code: -32001, message: "Session not found" });
      if (req.method !== "POST") return session.value.handleRequest(req, res, body);
      // A session answering a call is never evicted to make room for another.
      session.inFlight++;
      res.once("close", () => {
        session.inFlight--;
      });
      return session.value.handleRequest(req, res, body);
    }
    const initializing = Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
    if (req.method !== "POST" || !initializing) {
      return refuse(res, {
        status: 400,
        code: -32000,
        message: "Bad Request: Mcp-Session-Id header is required",
      });
    }
    // A client's share of the session table: its principal when requests are authenticated, else
    // its address (behind a trusted proxy, the one the proxy forwards).
    const client = gate ? `principal:${ownerOf(req)}` : `address:${clientOf(req, options.trustProxy)}`;
    if (!sessions.makeRoom(client)) {
      return refuse(res, {
        status: 503,
        code: -32000,
        message: "Service Unavailable: every session has a call in flight",
        headers: { "retry-after": "1" },
      });
    }
    const server = factory({ era: "legacy" });
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: sessionId,
      onsessioninitialized: (sessionId) => {
        sessions.add(sessionId, transport, client, Date.now());
      },
    });
    if (gate) owners.set(transport, ownerOf(req));
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      void server.close();
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createHttpServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      report({ kind: "protocol", error: error as Error });
      if (!res.headersSent) refuse(res, { status: 500, code: -32603, message: "Internal error" });
      else res.end();
    });
  });
  const host = httpOptions.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(httpOptions.port ?? 3000, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  options = resolveHttpOptions(httpOptions, (http.address() as AddressInfo).port);
  sessions = new SessionTable(options, (_id, entry) => void entry.value.close());
  limiter = options.rateLimit ? new RateLimiter(options.rateLimit) : undefined;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${urlHost}:${options.port}${options.path}`;
  if (auth) {
    const { createAuthGate } = await import("./auth/gate.ts");
    try {
      gate = createAuthGate({
        auth,
        serverUrl: url,
        path: options.path,
        serverName: manifest.server,
        scopesOf: (tool) => toolScopes.get(tool),
        allScopes: () => [...new Set([...toolScopes.values()].flat())],
      });
    } catch (error) {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      throw error;
    }
  }
  if (!isLoopback(host) && !httpOptions.allowedHosts) {
    process.stderr.write(
      `mcp-gen: listening on ${host} without Host checks; set allowedHosts (--allowed-host) to guard against DNS rebinding\n`,
    );
  }

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [, session] of sessions.stale(now, options.sessionIdleMs)) void session.value.close();
    },
    Math.min(options.sessionIdleMs, 60_000),
  );
  sweep.unref();

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const close = async () => {
    clearInterval(sweep);
    await Promise.all([...sessions.values()].map((s) => s.value.close()));
    await handler.close();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
    resolveClosed();
  };
  return {
    url,
    closed,
    async drain(timeoutMs = 30_000) {
      draining = true;
      if (answering > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, timeoutMs).unref();
        });
      }
      // Counted before closing: closing ends the responses still open, which counts them down.
      const cutOff = answering;
      await close();
      return { cutOff };
    },
    update(next) {
      factory.update(next);
      declaredHeaders = headersByTool(next);
      toolScopes = scopesByTool(next);
    },
    notifyResourceUpdated: (uri) => factory.notifyResourceUpdated(uri),
    close,
  };
}

/** Options that cannot go together with `auth`, refused before anything listens. */
function checkAuthOptions(options: HttpOptions): void {
  if (options.token !== undefined) {
    throw new Error(
      "mcp-gen: http.token (MCP_GEN_TOKEN) and http.auth exclude each other: the static token is for local use; with auth, clients send OAuth access tokens",
    );
  }
  if (!options.auth?.audience && !isLoopback(options.host ?? "127.0.0.1")) {
    throw new Error(
      `mcp-gen: http.auth needs its audience (--auth-audience <url>) when listening on ${options.host}: the URL clients reach the server at, e.g. https://mcp.example.com/mcp`,
    );
  }
}

/** The tools that need scopes, with their scopes. */
function scopesByTool(manifest: ServerManifest): Map<string, readonly string[]> {
  return new Map(
    manifest.tools.filter((t) => t.scopes?.length).map((t) => [t.definition.name, t.scopes ?? []]),
  );
}

/** The principal of a verified request: issuer-wide subject and client. */
function ownerOf(req: IncomingMessage): string {
  const info = (req as IncomingMessage & { auth?: AuthInfo }).auth;
  const claims = (info?.extra?.claims ?? {}) as { sub?: unknown };
  return JSON.stringify([claims.sub ?? null, info?.clientId ?? null]);
}

/**
 * Who a request comes from, for session shares and rate limits: the peer's address, or — when the
 * peer is a trusted proxy (`trustProxy`) — the right-most `X-Forwarded-For` address that is not a
 * trusted proxy itself (entries further left can be forged by the client).
 */
function clientOf(req: IncomingMessage, trustProxy: readonly string[] = []): string {
  const peer = normalizeAddress(req.socket.remoteAddress ?? "unknown");
  if (!trustProxy.includes(peer)) return peer;
  const header = req.headers["x-forwarded-for"];
  const hops = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((hop) => normalizeAddress(hop.trim()))
    .filter((hop) => hop !== "");
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trustProxy.includes(hops[i]!)) return hops[i]!;
  }
  return hops[0] ?? peer;
}

/** `::ffff:127.0.0.1` (an IPv4 peer on a dual-stack socket) as `127.0.0.1`. */
function normalizeAddress(address: string): string {
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
}

/**
 * Requests a 2026-07-28 client can send this server beside those of the manifest's capabilities
 * (`factory.serves`: tools, resources, prompts, completions); anything else is 404.
 */
const MODERN_METHODS = new Set(["server/discover", "ping", "subscriptions/listen", "logging/setLevel"]);

/** The refusal of new requests while draining. */
const SHUTTING_DOWN: Refusal = {
  status: 503,
  code: -32000,
  message: "Service Unavailable: the server is shutting down",
  headers: { "retry-after": "1", connection: "close" },
};

/** The id of a single JSON-RPC request body, for an error answer (`null` when there is none). */
function requestIdOf(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** Whether a JSON-RPC body holds a request (a method and an id), not only responses or notifications. */
function carriesRequest(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some(
    (m) => m !== null && typeof m === "object" && "method" in m && (m as { id?: unknown }).id !== undefined,
  );
}

/** Writes a web `Response` (the SDK's authorization challenges) to a Node response. */
async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body);
}

function refuse(res: ServerResponse, refusal: Refusal & { id?: string | number | null }): void {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    error: { code: refusal.code, message: refusal.message },
    id: refusal.id ?? null,
  });
  res.writeHead(refusal.status, {
    "content-type": "application/json",
    ...(refusal.status === 413 ? { connection: "close" } : {}),
    ...refusal.headers,
  });
  res.end(body);
}
