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
  const text = await readText(req, limits.maxBytes);
  if (text === undefined) return { ok: false, refusal: tooLarge };
  let value: unknown;
  try {
    value = JSON.parse(text);
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

/**
 * The body as text, `undefined` once more than `maxBytes` arrived (the rest is not read). Stream
 * events, not `for await`: Node's async iterator over a request costs more than the JSON parse
 * of a small call (bench/README, "HTTP, 2026-07-28").
 */
function readText(req: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  if (req.readableEnded) return Promise.resolve("");
  if (req.destroyed) return Promise.reject(new Error("the request was closed before its body was read"));
  return new Promise((resolve, reject) => {
    let first: Buffer | undefined;
    let more: Buffer[] | undefined;
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        done();
        resolve(undefined);
      } else if (first === undefined) first = chunk;
      else if (more === undefined) more = [first, chunk];
      else more.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(more ? Buffer.concat(more).toString("utf8") : (first?.toString("utf8") ?? ""));
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    const onClose = () => {
      done();
      reject(new Error("the request was closed before its body was read"));
    };
    const done = () => {
      req.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      req.pause();
    };
    req.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
}
