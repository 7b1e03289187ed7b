import type { IncomingMessage } from "node:http";
import { type AuthInfo, PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";

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

/**
 * Whether the SDK's `createMcpHandler` is sure to route this POST body to its 2026-07-28 path (or
 * to answer it with that path's errors), read from what is already parsed: a single JSON-RPC
 * message naming a method other than `initialize`, not a response, whose `params._meta` holds the
 * protocol-version claim. `isLegacyRequest` is documented to return `false` for every such body;
 * deciding it here saves its second classification (three Zod parses) on every 2026-07-28 call.
 * `false` means "ask `isLegacyRequest`", not "legacy".
 */
export function claimsModernEra(body: unknown): boolean {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return false;
  const message = body as { method?: unknown; params?: unknown };
  if (typeof message.method !== "string" || message.method === "initialize") return false;
  if ("result" in message || "error" in message) return false;
  const params = message.params;
  if (params === null || typeof params !== "object" || Array.isArray(params)) return false;
  const meta = (params as { _meta?: unknown })._meta;
  return (
    meta !== null && typeof meta === "object" && !Array.isArray(meta) && PROTOCOL_VERSION_META_KEY in meta
  );
}
