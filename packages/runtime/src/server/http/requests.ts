import type { IncomingMessage } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { ResolvedHttpOptions } from "./options.ts";

/** The principal of a verified request: issuer-wide subject and client. */
export function ownerOf(req: IncomingMessage): string {
  const info = (req as IncomingMessage & { auth?: AuthInfo }).auth;
  const claims = (info?.extra?.claims ?? {}) as { sub?: unknown };
  return JSON.stringify([claims.sub ?? null, info?.clientId ?? null]);
}

/**
 * Who a request comes from, for session shares and rate limits: the peer's address, or — when the
 * peer is a trusted proxy (`trustProxy`) — the right-most `X-Forwarded-For` address that is not a
 * trusted proxy itself (entries further left can be forged by the client).
 */
export function clientOf(req: IncomingMessage, trustProxy: readonly string[] = []): string {
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
export function normalizeAddress(address: string): string {
  return address.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
}

/**
 * What `isLegacyRequest` reads of a request besides its parsed body: method, URL and headers
 * (the `MCP-Protocol-Version` header marks a 2026-07-28 request).
 */
export function webRequestOf(req: IncomingMessage, options: ResolvedHttpOptions): Request {
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

/** Whether a JSON-RPC body holds a request (a method and an id), not only responses or notifications. */
export function carriesRequest(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some(
    (m) => m !== null && typeof m === "object" && "method" in m && (m as { id?: unknown }).id !== undefined,
  );
}
