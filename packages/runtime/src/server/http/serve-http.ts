import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { type AuthInfo, createMcpHandler, isLegacyRequest } from "@modelcontextprotocol/server";
import { createServerFactory } from "../create-server.ts";
import type { ServerManifest } from "../manifest.ts";
import { logToStderr, type McpGenServerOptions } from "../options.ts";
import type { RunningServer } from "../serve.ts";
import type { AuthGate } from "./auth/gate.ts";
import { readJsonBody } from "./body.ts";
import { checkRequest, refuse, SHUTTING_DOWN, sendResponse } from "./guard.ts";
import { legacySessions } from "./legacy-sessions.ts";
import { modernRefusal } from "./modern-refusal.ts";
import {
  checkAuthOptions,
  checkSessionRoute,
  type HttpOptions,
  isLoopback,
  type ResolvedHttpOptions,
  resolveHttpOptions,
} from "./options.ts";
import { headersByTool } from "./param-headers.ts";
import { answerProbe } from "./probes.ts";
import { carriesRequest, claimsModernEra, clientOf, requestIdOf } from "./requests.ts";
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
  serverOptions: McpGenServerOptions,
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
  const handleSession = legacySessions({
    factory,
    newSessionId: sessionId,
    sessions: () => sessions,
    options: () => options,
    gate: () => gate,
  });

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
    if (answerProbe(req, res, { options, draining, onerror })) return;
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
    const legacy =
      req.method === "POST" && claimsModernEra(body) ? false : await isLegacyRequest(exchange.request, body);
    if (!legacy) {
      const refusal = modernRefusal(body, req, {
        serves: (m) => factory.serves(m, "modern"),
        declaredHeaders,
      });
      if (refusal) return refuse(res, refusal);
    }
    if (options.stateless || !legacy) return viaSdk(exchange, req, res, body);
    return handleSession(req, res, body);
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

/** The tools that need scopes, with their scopes. */
function scopesByTool(manifest: ServerManifest): Map<string, readonly string[]> {
  return new Map(
    manifest.tools.filter((t) => t.scopes?.length).map((t) => [t.definition.name, t.scopes ?? []]),
  );
}
