import type { IncomingMessage } from "node:http";
import type { McpHeader } from "@mcp-gen/schema/headers";
import type { Refusal } from "./guard.ts";
import { paramHeaderMismatch } from "./param-headers.ts";

/**
 * Requests a 2026-07-28 client can send this server beside those of the manifest's capabilities
 * (`serves`: tools, resources, prompts, completions); anything else is 404.
 */
const MODERN_METHODS = new Set(["server/discover", "ping", "subscriptions/listen", "logging/setLevel"]);

/** What `modernRefusal` checks a request against. */
export interface ModernRoutes {
  /** Whether the manifest serves a method to 2026-07-28 clients (`ServerFactory.serves`). */
  serves(method: string): boolean;
  /** The `Mcp-Param-*` headers each tool declares. */
  declaredHeaders: ReadonlyMap<string, McpHeader[]>;
}

/**
 * Checks the SDK leaves to servers built on its low-level `Server`: a method nobody serves is
 * HTTP 404 (2026-07-28 routes on the method), and `Mcp-Param-*` headers must agree with the
 * arguments they mirror (HTTP 400, `-32020`).
 */
export function modernRefusal(
  body: unknown,
  req: IncomingMessage,
  routes: ModernRoutes,
): (Refusal & { id: string | number | null }) | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  const { method, params, id } = body as {
    method?: unknown;
    params?: { name?: unknown; arguments?: unknown };
    id?: unknown;
  };
  if (typeof method !== "string" || id === undefined) return undefined;
  const requestId = typeof id === "string" || typeof id === "number" ? id : null;
  if (!MODERN_METHODS.has(method) && !routes.serves(method)) {
    return { status: 404, code: -32601, message: `Method not found: ${method}`, id: requestId };
  }
  if (method !== "tools/call" || typeof params?.name !== "string") return undefined;
  const declared = routes.declaredHeaders.get(params.name);
  const mismatch = declared && paramHeaderMismatch(declared, params.arguments, req.headers);
  return mismatch
    ? { status: 400, code: -32020, message: `Header mismatch: ${mismatch}`, id: requestId }
    : undefined;
}
