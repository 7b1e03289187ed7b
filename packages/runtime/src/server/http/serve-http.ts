import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { createServer } from "../create-server.ts";
import type { ServerManifest } from "../manifest.ts";
import { logToStderr, type ServerOptions } from "../options.ts";
import type { RunningServer } from "../serve.ts";
import { readJsonBody } from "./body.ts";
import { checkRequest, type Refusal } from "./guard.ts";
import { type HttpOptions, isLoopback, type ResolvedHttpOptions, resolveHttpOptions } from "./options.ts";

interface Session {
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

/**
 * Serves a manifest over Streamable HTTP with the SDK's transport: one SDK server per session
 * (ids from `crypto.randomUUID`), or one per request in stateless mode. Every request first
 * passes the Host/Origin/token checks and the body limits.
 */
export async function serveHttp(
  manifest: ServerManifest,
  serverOptions: ServerOptions,
  httpOptions: HttpOptions,
): Promise<RunningServer> {
  const sessions = new Map<string, Session>();
  let options!: ResolvedHttpOptions;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== options.path)
      return refuse(res, { status: 404, code: -32000, message: `Not Found: use ${options.path}` });
    const refusal = checkRequest(req, options);
    if (refusal) return refuse(res, refusal);
    let body: unknown;
    if (req.method === "POST") {
      const read = await readJsonBody(req, {
        maxBytes: options.maxBodyBytes,
        maxDepth: options.maxJsonDepth,
      });
      if (!read.ok) return refuse(res, read.refusal);
      body = read.value;
    }
    if (options.stateless) return handleStateless(req, res, body);
    return handleSession(req, res, body);
  };

  // Stateless servers are reused once their request is done (building one costs more than the call);
  // a server that saw `initialize` holds that client's capabilities and is dropped instead.
  const idle: Server[] = [];
  const handleStateless = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    if (req.method !== "POST") {
      return refuse(res, {
        status: 405,
        code: -32000,
        message: "Method Not Allowed: stateless server",
        headers: { allow: "POST" },
      });
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = idle.pop() ?? createServer(manifest, serverOptions);
    const reusable = !(Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body));
    res.once("close", () => {
      void server.close().then(() => {
        if (reusable && idle.length < 64) idle.push(server);
      });
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const handleSession = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const session = sessions.get(id);
      if (!session) return refuse(res, { status: 404, code: -32001, message: "Session not found" });
      session.lastSeen = Date.now();
      return session.transport.handleRequest(req, res, body);
    }
    const initializing = Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
    if (req.method !== "POST" || !initializing) {
      return refuse(res, {
        status: 400,
        code: -32000,
        message: "Bad Request: Mcp-Session-Id header is required",
      });
    }
    if (sessions.size >= options.maxSessions) {
      return refuse(res, { status: 503, code: -32000, message: "Service Unavailable: too many sessions" });
    }
    const server = createServer(manifest, serverOptions);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, lastSeen: Date.now() });
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
      (serverOptions.onError ?? logToStderr)({ kind: "protocol", error: error as Error });
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
  if (!isLoopback(host) && !httpOptions.allowedHosts) {
    process.stderr.write(
      `mcp-gen: listening on ${host} without Host checks; set allowedHosts (--allowed-host) to guard against DNS rebinding\n`,
    );
  }

  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const session of sessions.values())
        if (now - session.lastSeen > options.sessionIdleMs) void session.transport.close();
    },
    Math.min(options.sessionIdleMs, 60_000),
  );
  sweep.unref();

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${options.port}${options.path}`,
    closed,
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.transport.close()));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      resolveClosed();
    },
  };
}

function refuse(res: ServerResponse, refusal: Refusal): void {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    error: { code: refusal.code, message: refusal.message },
    id: null,
  });
  res.writeHead(refusal.status, {
    "content-type": "application/json",
    ...(refusal.status === 413 ? { connection: "close" } : {}),
    ...refusal.headers,
  });
  res.end(body);
}
