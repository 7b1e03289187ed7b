import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readJsonBody } from "@mcp-gen/runtime/server/http";

/**
 * Headers of every response: the page may load only its own script, style and API (so nothing
 * injected could run or phone home), never be framed, and send no referrer.
 */
export const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
} as const;

/** The page's files, read once: path → body and content type. */
export function staticFiles(): Map<string, { body: Buffer; type: string }> {
  const file = (name: string) => readFileSync(new URL(`./static/${name}`, import.meta.url));
  return new Map([
    ["/", { body: file("index.html"), type: "text/html; charset=utf-8" }],
    ["/app.js", { body: file("app.js"), type: "text/javascript; charset=utf-8" }],
    ["/style.css", { body: file("style.css"), type: "text/css; charset=utf-8" }],
    ["/favicon.svg", { body: file("favicon.svg"), type: "image/svg+xml" }],
  ]);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res
    .writeHead(status, { ...SECURITY_HEADERS, "content-type": "application/json; charset=utf-8" })
    .end(JSON.stringify(value));
}

export function sendError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { error: message });
}

/**
 * Reads a small JSON object body. `content-type: application/json` is required, so a form on
 * another site cannot post here without a CORS preflight (which this server never answers).
 */
export async function readJsonObject(
  req: IncomingMessage,
): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; status: number; message: string }> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json")
    return { ok: false, status: 415, message: "send the body as application/json" };
  const read = await readJsonBody(req, { maxBytes: 64 * 1024, maxDepth: 10 });
  if (!read.ok) return { ok: false, status: read.refusal.status, message: read.refusal.message };
  const value = read.value;
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { ok: false, status: 400, message: "the body must be a JSON object" };
  return { ok: true, value: value as Record<string, unknown> };
}
