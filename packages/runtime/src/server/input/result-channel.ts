import type { ServerContext } from "@modelcontextprotocol/server";

/**
 * Where a 2025-11-25 task sends its requests to the client (`elicitation/create` …): on the
 * stream of a `tasks/result` request waiting for it, as the spec's `input_required` flow has it
 * (the request that created the task was answered long ago; over HTTP its stream is closed).
 */
export class ResultChannel {
  readonly #open = new Set<ServerContext>();
  #waiting: ((ctx: ServerContext) => void)[] = [];

  /** A `tasks/result` request waits for the task from now on; the returned function ends that. */
  attach(ctx: ServerContext): () => void {
    this.#open.add(ctx);
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake(ctx);
    return () => this.#open.delete(ctx);
  }

  /** A waiting `tasks/result` request: one now, or the next to come (until `signal` aborts). */
  next(signal: AbortSignal): Promise<ServerContext> {
    const [first] = this.#open;
    if (first) return Promise.resolve(first);
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push((ctx) => {
        signal.removeEventListener("abort", onAbort);
        resolve(ctx);
      });
    });
  }
}
