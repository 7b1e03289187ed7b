import type { IncomingMessage } from "node:http";
import { unsafeArguments } from "../guard.ts";
import type { Refusal } from "./guard.ts";

/**
 * Reads and parses a JSON request body within limits: at most `maxBytes` (HTTP 413 beyond),
 * valid JSON (-32700), nesting at most `maxDepth` and no `__proto__` / `constructor.prototype`
 * keys anywhere (-32600), so nothing downstream can be made to recurse deeply or to copy a
 * prototype.
 *
 * @example
 * const read = await readJsonBody(req, { maxBytes: 64 * 1024, maxDepth: 20 });
 * if (!read.ok) return res.writeHead(read.refusal.status).end(read.refusal.message);
 */
export async function readJsonBody(
  req: IncomingMessage,
  limits: { maxBytes: number; maxDepth: number },
): Promise<{ ok: true; value: unknown } | { ok: false; refusal: Refusal }> {
  const tooLarge: Refusal = {
    status: 413,
    code: -32600,
    message: `Payload Too Large: request bodies are limited to ${limits.maxBytes} bytes`,
  };
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limits.maxBytes) return { ok: false, refusal: tooLarge };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limits.maxBytes) return { ok: false, refusal: tooLarge };
    chunks.push(chunk);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return { ok: false, refusal: { status: 400, code: -32700, message: "Parse error: Invalid JSON" } };
  }
  const unsafe = unsafeArguments(value, { maxDepth: limits.maxDepth });
  if (unsafe) {
    return {
      ok: false,
      refusal: {
        status: 400,
        code: -32600,
        message: `Invalid Request: at ${unsafe.pointer || "(root)"} expected ${unsafe.expected}, received ${unsafe.received}`,
      },
    };
  }
  return { ok: true, value };
}
