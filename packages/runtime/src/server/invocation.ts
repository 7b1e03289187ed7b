import { SdkError, SdkErrorCode, type ServerContext } from "@modelcontextprotocol/server";
import { ToolError } from "../tool-error.ts";
import type { CallEnvironment, Target } from "./call-tool.ts";
import type { InputChannel } from "./input/channel.ts";

/** A call served in process has no client to ask. */
const NO_CLIENT: InputChannel = {
  ask: () => Promise.reject(new ToolError("This call has no MCP client to ask (it runs in process).")),
  progress: () => Promise.resolve(),
  becomeTask: () => Promise.resolve(),
};

/** Reasons the call's signal can carry. */
export class TimeoutError extends Error {
  override readonly name = "TimeoutError";
}

/** How a running implementation ended: its value, or what it threw (or why it was aborted). */
export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * One execution of an implementation, with its own abort signal: aborted by the timeout and by
 * the cancellation of the request it currently serves. A call from a 2026-07-28 client that
 * waits for the user's input outlives its first request: `relink` moves it to the retry.
 */
export class Invocation<R = unknown> {
  readonly controller = new AbortController();
  /** Settles when the implementation returns or throws, or the call is aborted. */
  readonly outcome: Promise<Outcome>;
  /** How the call reaches its client now: its era's channel, a task's once it becomes one. */
  channel: InputChannel;
  #env: CallEnvironment;
  #timer: NodeJS.Timeout | undefined;
  #unlink: () => void = () => {};

  constructor(
    readonly target: Target<R>,
    args: unknown,
    env: CallEnvironment,
  ) {
    this.#env = env;
    this.channel = env.channel?.(this as Invocation<unknown>) ?? NO_CLIENT;
    const { signal } = this.controller;
    this.relink(env);
    if (env.timeoutMs !== undefined) {
      const ms = env.timeoutMs;
      this.#timer = setTimeout(
        () => this.controller.abort(new TimeoutError(`${target.label} timed out after ${ms} ms`)),
        ms,
      );
    }
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(signal.reason);
      if (signal.aborted) fail();
      else signal.addEventListener("abort", fail, { once: true });
    });
    const running = Promise.resolve().then(() =>
      target.run(args, target.usesContext ? env.context(signal, this as Invocation<unknown>) : undefined),
    );
    // The implementation may ignore its signal: its late outcome is dropped.
    running.catch(() => {});
    this.outcome = Promise.race([running, aborted]).then(
      (value): Outcome => ({ ok: true, value }),
      (error: unknown): Outcome => ({ ok: false, error }),
    );
    void this.outcome.then(() => {
      clearTimeout(this.#timer);
      this.#unlink();
    });
  }

  /**
   * The request the invocation currently serves (progress and notifications go there). Only
   * served calls build their context from it; in-process calls have none.
   */
  get request(): ServerContext {
    if (!this.#env.request) throw new Error("mcp-gen: this call serves no MCP request");
    return this.#env.request;
  }

  /** The call's own signal: aborted by its timeout and by the cancellation of the request it serves. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** How messages name what runs: `Tool "add"`. */
  get label(): string {
    return this.target.label;
  }

  /** Serves a new request from now on: its cancellation aborts the call. */
  relink(env: CallEnvironment): void {
    this.#unlink();
    this.#env = env;
    const requestSignal = env.requestSignal;
    const onCancel = () => this.controller.abort(cancelReason(requestSignal.reason));
    if (requestSignal.aborted) {
      onCancel();
      this.#unlink = () => {};
      return;
    }
    requestSignal.addEventListener("abort", onCancel, { once: true });
    this.#unlink = () => requestSignal.removeEventListener("abort", onCancel);
  }

  /** Stops following the current request (it was answered; the call waits for the next one). */
  detach(): void {
    this.#unlink();
    this.#unlink = () => {};
  }

  /** The result the client receives for this outcome. */
  settle(outcome: Outcome): R {
    return this.target.settle(outcome, this.#env);
  }
}

/**
 * Why a call was cancelled, as the tool sees it: the client's reason (`notifications/cancelled`),
 * or — when a 2026-07-28 client over HTTP just closes the request's connection, which carries no
 * reason — an error that says so.
 */
function cancelReason(reason: unknown): unknown {
  if (reason instanceof SdkError && reason.code === SdkErrorCode.ConnectionClosed) {
    return new Error("cancelled: the client closed the connection of the request");
  }
  return reason ?? new Error("cancelled by the client");
}
