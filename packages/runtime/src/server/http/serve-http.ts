import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { NodeStreamableHTTPServerTransport, toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, isInitializeRequest, isLegacyRequest } from "@modelcontextprotocol/server";
import { createServerFactory } from "../create-server.ts";
import type { ServerManifest } from "../manifest.ts";
import { logToStderr, type ServerOptions } from "../options.ts";
import type { RunningServer } from "../serve.ts";
import { readJsonBody } from "./body.ts";
import { checkRequest, type Refusal } from "./guard.ts";
import { type HttpOptions, isLoopback, type ResolvedHttpOptions, resolveHttpOptions } from "./options.ts";
import { headersByTool, paramHeaderMismatch } from "./param-headers.ts";
import { RateLimiter, SessionTable } from "./sessions.ts";

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
  const factory = createServerFactory(manifest, serverOptions);
  const handler = createMcpHandler(factory, {
    legacy: httpOptions.stateless ? "stateless" : "reject",
    onerror,
  });
  const viaSdk = toNodeHandler(handler, { onerror });
  // 2026-07-28 clients hear of changes on their `subscriptions/listen` streams, which the handler serves.
  factory.relay(handler.notify);
  let declaredHeaders = headersByTool(manifest);

  // Draining (SIGTERM behind a load balancer): health says so, new requests are turned away, and
  // the requests being answered finish before the server closes.
  let draining = false;
  let answering = 0;
  let drained: (() => void) | undefined;
  const finished = () => {
    answering--;
    if (answering === 0) drained?.();
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
    if (path !== options.path)
      return refuse(res, { status: 404, code: -32000, message: `Not Found: use ${options.path}` });
    if (draining) {
      return refuse(res, {
        status: 503,
        code: -32000,
        message: "Service Unavailable: the server is shutting down",
        headers: { "retry-after": "1", connection: "close" },
      });
    }
    const refusal = checkRequest(req, options);
    if (refusal) return refuse(res, refusal);
    const wait = limiter?.take(clientOf(req), Date.now()) ?? 0;
    if (wait > 0) {
      return refuse(res, {
        status: 429,
        code: -32000,
        message: "Too Many Requests: slow down",
        headers: { "retry-after": String(wait) },
      });
    }
    let body: unknown;
    if (req.method === "POST") {
      const read = await readJsonBody(req, {
        maxBytes: options.maxBodyBytes,
        maxDepth: options.maxJsonDepth,
      });
      if (!read.ok) return refuse(res, read.refusal);
      body = read.value;
    }
    // Calls count; streams that only wait for notifications (GET, subscriptions/listen) do not.
    const method = (body as { method?: unknown } | undefined)?.method;
    if (req.method === "POST" && method !== "subscriptions/listen") {
      answering++;
      res.once("close", finished);
    }
    const legacy = await isLegacyRequest(webRequestOf(req, options), body);
    if (!legacy) {
      const refusal = modernRefusal(body, req);
      if (refusal) return refuse(res, refusal);
    }
    if (options.stateless || !legacy) return viaSdk(req, res, body);
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
      if (!session) return refuse(res, { status: 404, code: -32001, message: "Session not found" });
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
    const client = clientOf(req);
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
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        sessions.add(sessionId, transport, client, Date.now());
      },
    });
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
  const urlHost = host.includes(":") ? `[${host}]` : host;
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
    url: `http://${urlHost}:${options.port}${options.path}`,
    closed,
    async drain(timeoutMs = 30_000) {
      draining = true;
      if (answering > 0) {
        await new Promise<void>((resolve) => {
          drained = resolve;
          setTimeout(resolve, timeoutMs).unref();
        });
      }
      await close();
    },
    update(next) {
      factory.update(next);
      declaredHeaders = headersByTool(next);
    },
    notifyResourceUpdated: (uri) => factory.notifyResourceUpdated(uri),
    close,
  };
}

/**
 * Who a request comes from, for session shares and rate limits: the peer's address (a proxy in
 * front should pass distinct clients on its own terms; `X-Forwarded-For` can be forged).
 */
function clientOf(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? "unknown";
}

/**
 * What `isLegacyRequest` reads of a request besides its parsed body: method, URL and headers
 * (the `MCP-Protocol-Version` header marks a 2026-07-28 request).
 */
function webRequestOf(req: IncomingMessage, options: ResolvedHttpOptions): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request(`http://127.0.0.1:${options.port}${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
  });
}

/**
 * Requests a 2026-07-28 client can send this server beside those of the manifest's capabilities
 * (`factory.serves`: tools, resources, prompts, completions); anything else is 404.
 */
const MODERN_METHODS = new Set(["server/discover", "ping", "subscriptions/listen", "logging/setLevel"]);

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
