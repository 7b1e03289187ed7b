import type { IncomingMessage, ServerResponse } from "node:http";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { isInitializeRequest } from "@modelcontextprotocol/server";
import type { ServerFactory } from "../create-server.ts";
import type { AuthGate } from "./auth/gate.ts";
import { refuse } from "./guard.ts";
import type { ResolvedHttpOptions } from "./options.ts";
import { clientOf, ownerOf } from "./requests.ts";
import type { SessionTable } from "./sessions.ts";

/** What the 2025-era sessions of an HTTP server share; read at each request (set once listening). */
export interface LegacySessionsEnv {
  factory: ServerFactory;
  /** A new session id (`sessionRoute.<uuid>` behind a balancer that routes on it). */
  newSessionId(): string;
  sessions(): SessionTable<NodeStreamableHTTPServerTransport>;
  options(): ResolvedHttpOptions;
  /** The authorization gate, with `auth`: a session then serves only the principal that opened it. */
  gate(): AuthGate | undefined;
}

/**
 * Serves 2025-era requests on sessions of their own: a request with `Mcp-Session-Id` goes to its
 * session's transport, an `initialize` without one opens a session (making room in the client's
 * share of the session table), anything else is refused.
 */
export function legacySessions(
  env: LegacySessionsEnv,
): (req: IncomingMessage, res: ServerResponse, body: unknown) => Promise<void> {
  /** Who opened each session, with `auth`. */
  const owners = new WeakMap<NodeStreamableHTTPServerTransport, string>();
  return async (req, res, body) => {
    const sessions = env.sessions();
    const gate = env.gate();
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
    const client = gate ? `principal:${ownerOf(req)}` : `address:${clientOf(req, env.options().trustProxy)}`;
    if (!sessions.makeRoom(client)) {
      return refuse(res, {
        status: 503,
        code: -32000,
        message: "Service Unavailable: every session has a call in flight",
        headers: { "retry-after": "1" },
      });
    }
    const server = env.factory({ era: "legacy" });
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: env.newSessionId,
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
}
