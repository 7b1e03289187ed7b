import type { IncomingMessage } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/server";

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

/** The id of a single JSON-RPC request body, for an error answer (`null` when there is none). */
export function requestIdOf(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** Whether a JSON-RPC body holds a request (a method and an id), not only responses or notifications. */
export function carriesRequest(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some(
    (m) => m !== null && typeof m === "object" && "method" in m && (m as { id?: unknown }).id !== undefined,
  );
}
