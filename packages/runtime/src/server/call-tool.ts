import type { ProtocolEra } from "@modelcontextprotocol/server";
import {
  type CallToolResult,
  MissingRequiredClientCapabilityError,
  SdkError,
  SdkErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { ToolContext } from "../context.ts";
import { ToolError } from "../tool-error.ts";
import { formatIssues } from "../validation/format.ts";
import type { OutcomeNote } from "./call-log.ts";
import { type ArgumentLimits, unsafeArguments } from "./guard.ts";
import type { ManifestTool } from "./manifest.ts";
import type { ServerEvent } from "./options.ts";
import { errorResult, isProblem, toCallResult } from "./result.ts";

/** What one `tools/call` needs beyond the tool and its arguments. */
export interface CallEnvironment {
  /** The protocol era of the client: how results are shaped (default `"legacy"`: wrapped). */
  era?: ProtocolEra;
  limits: ArgumentLimits;
  maskErrors: boolean;
  /** Milliseconds before the call is abandoned; `undefined` for no limit. */
  timeoutMs: number | undefined;
  /** Aborted when the client cancels the request. */
  requestSignal: AbortSignal;
  /** The `tools/call` request being served (id, progress token, notifications); absent in process. */
  request?: ServerContext;
  /** Builds the tool's context around the call's own signal and the request it currently serves. */
  context(signal: AbortSignal, invocation: Invocation<unknown>): ToolContext;
  report(event: ServerEvent): void;
  /** Where the call notes how it ended beyond its result (for the call log). */
  note?: OutcomeNote;
}

/**
 * Runs one tool call: arguments are checked (safety, then schema) before the implementation
 * is touched; an invalid call returns the validator's feedback as an `isError` result and
 * never executes. Thrown errors and timeouts become `isError` results too.
 */
export async function callTool(
  tool: ManifestTool,
  rawArgs: unknown,
  env: CallEnvironment,
): Promise<CallToolResult> {
  const checked = checkArguments(tool, rawArgs, env);
  if (!checked.ok) return checked.result;
  if (!tool.usesContext && env.timeoutMs === undefined) {
    let value: unknown;
    try {
      value = await tool.invoke(checked.args, undefined);
    } catch (error) {
      return thrown(tool.definition.name, error, env);
    }
    return finishCall(tool, value, env);
  }
  const invocation = new Invocation(toolTarget(tool), checked.args, env);
  return invocation.settle(await invocation.outcome);
}

/**
 * What an `Invocation` runs: a tool, or the implementation of a resource or prompt (which a
 * 2026-07-28 client may also have to answer questions for), and how its outcome is answered.
 */
export interface Target<R> {
  /** Binds a parked call to what it runs (`tool:name`, `prompt:name` …). */
  readonly key: string;
  /** How messages name it: `Tool "add"`, `Prompt "greet"`. */
  readonly label: string;
  readonly usesContext: boolean;
  run(args: unknown, context: ToolContext | undefined): unknown;
  /** The result the client receives for an outcome. */
  settle(outcome: Outcome, env: CallEnvironment): R;
}

/** A tool as an invocation target: `tools/call` results, errors as `isError` results. */
export function toolTarget(tool: ManifestTool): Target<CallToolResult> {
  const name = tool.definition.name;
  return {
    key: `tool:${name}`,
    label: `Tool ${JSON.stringify(name)}`,
    usesContext: tool.usesContext,
    run: (args, context) => tool.invoke(args, context),
    settle: (outcome, env) =>
      outcome.ok ? finishCall(tool, outcome.value, env) : thrown(name, outcome.error, env),
  };
}

/** Safety limits, then the generated validator; the arguments to run with, or the feedback. */
export function checkArguments(
  tool: ManifestTool,
  rawArgs: unknown,
  env: CallEnvironment,
): { ok: true; args: unknown } | { ok: false; result: CallToolResult } {
  const args = rawArgs ?? {};
  const unsafe = unsafeArguments(args, env.limits);
  if (unsafe) {
    if (env.note) env.note.outcome = "invalid-arguments";
    return {
      ok: false,
      result: errorResult(formatIssues([unsafe], `Invalid arguments of tool "${tool.definition.name}"`)),
    };
  }
  const checked = tool.input.check(args);
  if (checked.ok) return { ok: true, args };
  if (env.note) env.note.outcome = "invalid-arguments";
  return { ok: false, result: errorResult(checked.message) };
}

/** The implementation's value as a `tools/call` result (checked against the output validator). */
function finishCall(tool: ManifestTool, value: unknown, env: CallEnvironment): CallToolResult {
  const name = tool.definition.name;
  const result = toCallResult(tool, value, env.era ?? "legacy");
  if (!isProblem(result)) return result;
  env.report({ kind: "invalid-result", tool: name, message: result.message, value: result.value });
  return errorResult(
    `Tool "${name}" produced a result that does not match its output schema (a server bug; it was logged).`,
  );
}

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
export class Invocation<R = CallToolResult> {
  readonly controller = new AbortController();
  /** Settles when the implementation returns or throws, or the call is aborted. */
  readonly outcome: Promise<Outcome>;
  #env: CallEnvironment;
  #timer: NodeJS.Timeout | undefined;
  #unlink: () => void = () => {};

  constructor(
    readonly target: Target<R>,
    args: unknown,
    env: CallEnvironment,
  ) {
    this.#env = env;
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

function thrown(name: string, error: unknown, env: CallEnvironment): CallToolResult {
  // A 2026-07-28 client lacks what the tool asked for: a protocol error (-32021), not a tool result.
  if (error instanceof MissingRequiredClientCapabilityError) throw error;
  if (env.note) {
    env.note.outcome =
      error instanceof TimeoutError ? "timeout" : env.requestSignal.aborted ? "cancelled" : "tool-error";
  }
  if (error instanceof TimeoutError) return errorResult(error.message);
  if (error instanceof ToolError) return errorResult(error.message);
  if (env.maskErrors) {
    env.report({ kind: "tool-error", tool: name, error, masked: true });
    return errorResult(`Tool "${name}" failed with an internal error.`);
  }
  env.report({ kind: "tool-error", tool: name, error, masked: false });
  const message = error instanceof Error ? error.message : String(error);
  return errorResult(message || `Tool "${name}" failed.`);
}
