import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * One HTTP exchange in web-standard form, converted once: the `Request` that `isLegacyRequest`
 * reads and `createMcpHandler`'s `fetch` serves (its body is passed as the already parsed
 * `parsedBody`, so the request carries headers, URL and an abort signal only), and the way its
 * `Response` goes back to Node. This is what the SDK's `toNodeHandler` does around `fetch`,
 * without converting the request a second time and re-serialising a body that was already read.
 */
export interface WebExchange {
  readonly request: Request;
  /** Writes the handler's response (a JSON body or an SSE stream) to the Node response. */
  send(response: Response): Promise<void>;
}

/**
 * Wraps a Node request whose body was read: the `Request`'s signal aborts when the client goes
 * away before the response ended (a cancelled call, a closed `subscriptions/listen` stream).
 */
export function webExchange(req: IncomingMessage, res: ServerResponse): WebExchange {
  const abort = new AbortController();
  let finished = false;
  res.on("close", () => {
    if (!finished) abort.abort();
  });
  if (res.destroyed) abort.abort();
  const headers: [string, string][] = [];
  for (const name in req.headers) {
    const value = req.headers[name];
    if (value === undefined || name.startsWith(":")) continue;
    if (Array.isArray(value)) for (const item of value) headers.push([name, item]);
    else headers.push([name, value]);
  }
  const request = new ExchangeRequest(urlOf(req), {
    method: (req.method ?? "GET").toUpperCase(),
    headers,
    exchangeSignal: abort.signal,
  });
  return {
    request,
    async send(response) {
      const head = Object.fromEntries(response.headers) as Record<string, string | number>;
      if (response.body === null) {
        finished = true;
        res.writeHead(response.status, head).end();
        return;
      }
      if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
        // A JSON answer: one write with its length, not a chunked stream ended by a second write.
        const bytes = Buffer.from(await response.arrayBuffer());
        finished = true;
        head["content-length"] = bytes.length;
        res.writeHead(response.status, head).end(bytes);
        return;
      }
      res.writeHead(response.status, head);
      await pipeBody(response.body, res, abort.signal);
      finished = true;
      res.end();
    },
  };
}

/**
 * A `Request` whose `signal` is the exchange's own. Handing `new Request` a signal to follow costs
 * more than building the rest of the request (undici links the two with a weak reference and a
 * finalization registry); the SDK only reads the signal, so the exchange's is returned as is.
 * A `clone()` would not carry it, but the SDK clones only requests whose body it reads itself, and
 * every POST reaches it with the body already parsed (`parsedBody`).
 */
class ExchangeRequest extends Request {
  constructor(
    url: string,
    init: { method: string; headers: [string, string][]; exchangeSignal: AbortSignal },
  ) {
    super(url, { method: init.method, headers: init.headers });
    Object.defineProperty(this, "signal", { value: init.exchangeSignal });
  }
}

/** The request's URL as the SDK's `toWebRequest` forms it (from `Host`), `localhost` if unusable. */
function urlOf(req: IncomingMessage): string {
  const host = req.headers.host;
  const path = req.url ?? "/";
  if (host) {
    try {
      return new URL(`http://${host}${path}`).href;
    } catch {
      // a Host the guard let through that no URL can hold: the path still routes
    }
  }
  return `http://localhost${path}`;
}

/** Streams a response body, waiting for `drain` when the socket is full; stops when the client left. */
async function pipeBody(body: ReadableStream<Uint8Array>, res: ServerResponse, signal: AbortSignal) {
  const closed = new Promise<void>((resolve) =>
    signal.addEventListener("abort", () => resolve(), { once: true }),
  );
  try {
    for await (const chunk of body) {
      if (signal.aborted) break;
      if (!res.write(chunk))
        await Promise.race([new Promise((resolve) => res.once("drain", resolve)), closed]);
    }
  } catch {
    // the stream failed or was cancelled with the client: end what was sent
  }
}
