import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ResolvedHttpOptions } from "./options.ts";

/** Why a request is refused before it reaches MCP: HTTP status, JSON-RPC code, message, headers. */
export interface Refusal {
  status: number;
  code: number;
  message: string;
  headers?: Record<string, string>;
}

/**
 * Checks what must hold before anything else runs: the `Host` and `Origin` headers against
 * DNS rebinding (a web page whose domain resolves to 127.0.0.1 cannot reach the server),
 * then the bearer token. Exported so that other local HTTP servers (the ledger example's web chat)
 * apply the same checks.
 *
 * @example
 * const options = resolveHttpOptions({}, port); // loopback: localhost, 127.0.0.1, [::1] with the port
 * const refusal = checkRequest(req, options);
 * if (refusal) return res.writeHead(refusal.status).end(refusal.message);
 */
export function checkRequest(req: IncomingMessage, options: ResolvedHttpOptions): Refusal | undefined {
  const host = req.headers.host?.toLowerCase();
  if (options.allowedHosts && (!host || !options.allowedHosts.includes(host))) {
    return {
      status: 403,
      code: -32000,
      message: `Forbidden: Host header ${JSON.stringify(host ?? "")} is not allowed`,
    };
  }
  const origin = req.headers.origin?.toLowerCase();
  if (origin !== undefined && !options.allowedOrigins.includes(origin)) {
    return {
      status: 403,
      code: -32000,
      message: `Forbidden: Origin ${JSON.stringify(origin)} is not allowed`,
    };
  }
  if (options.token !== undefined && !bearerMatches(req.headers.authorization, options.token)) {
    return {
      status: 401,
      code: -32001,
      message: "Unauthorized: send Authorization: Bearer <token>",
      headers: { "www-authenticate": 'Bearer realm="mcp"' },
    };
  }
  return undefined;
}

/** Constant-time comparison (of digests, so lengths leak nothing either). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!match) return false;
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

/** The refusal of new requests while draining. */
export const SHUTTING_DOWN: Refusal = {
  status: 503,
  code: -32000,
  message: "Service Unavailable: the server is shutting down",
  headers: { "retry-after": "1", connection: "close" },
};

/** Writes a web `Response` (the SDK's authorization challenges) to a Node response. */
export async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(body);
}

export function refuse(res: ServerResponse, refusal: Refusal & { id?: string | number | null }): void {
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
