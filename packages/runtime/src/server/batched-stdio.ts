import type { Readable, Writable } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

/**
 * The SDK's `StdioServerTransport`, with the messages sent in one turn of the event loop written
 * together: the first `send` of a turn corks stdout and the end of the turn (`process.nextTick`,
 * after the promise jobs of the turn) uncorks it, so the replies to the requests of one read
 * arrive at the client in one `writev` instead of one pipe write — and one wake-up of the client
 * — each. What each message is, its order and its serialisation stay the SDK's; a lone reply
 * goes out at the end of its turn as before, and a batch that reaches stdout's high-water mark
 * goes out at once. (Node's own HTTP server corks its sockets the same
 * way.) `serveOverStdio` and `serve()` use it; pass it to the SDK's `serveStdio` to get the same.
 * Figures in bench/README.md ("Issue 23, the server side").
 *
 * @example
 * import { serveStdio } from "@modelcontextprotocol/server/stdio";
 * import { BatchedStdioServerTransport } from "@mcp-gen/runtime/server/stdio";
 * serveStdio(factory, { transport: new BatchedStdioServerTransport() });
 */
export class BatchedStdioServerTransport extends StdioServerTransport {
  readonly #out: Writable;
  #corked = false;
  readonly #uncork = () => {
    this.#corked = false;
    this.#out.uncork();
  };

  constructor(stdin: Readable = process.stdin, stdout: Writable = process.stdout) {
    super(stdin, stdout);
    this.#out = stdout;
  }

  override send(message: JSONRPCMessage): Promise<void> {
    if (!this.#corked && !this.#out.writableEnded) {
      this.#corked = true;
      this.#out.cork();
      process.nextTick(this.#uncork);
    }
    const sent = super.send(message);
    // The batch reached stdout's high-water mark: written now, so that sends wait for a drain
    // only when the client does not read, as they would without the batching.
    if (this.#corked && this.#out.writableNeedDrain) {
      this.#out.uncork();
      this.#out.cork();
    }
    return sent;
  }
}
