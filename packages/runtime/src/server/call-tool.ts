import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolContext } from "../context.ts";
import { ToolError } from "../tool-error.ts";
import { formatIssues } from "../validation/format.ts";
import { type ArgumentLimits, unsafeArguments } from "./guard.ts";
import type { ManifestTool } from "./manifest.ts";
import type { ServerEvent } from "./options.ts";
import { errorResult, isProblem, toCallResult } from "./result.ts";

/** What one `tools/call` needs beyond the tool and its arguments. */
export interface CallEnvironment {
  limits: ArgumentLimits;
  maskErrors: boolean;
  /** Milliseconds before the call is abandoned; `undefined` for no limit. */
  timeoutMs: number | undefined;
  /** Aborted when the client cancels the request. */
  requestSignal: AbortSignal;
  /** Builds the tool's context around the call's own signal. */
  context(signal: AbortSignal): ToolContext;
  report(event: ServerEvent): void;
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
  const name = tool.definition.name;
  const args = rawArgs ?? {};
  const unsafe = unsafeArguments(args, env.limits);
  if (unsafe) return errorResult(formatIssues([unsafe], `Invalid arguments of tool "${name}"`));
  const checked = tool.input.check(args);
  if (!checked.ok) return errorResult(checked.message);

  let value: unknown;
  try {
    value =
      tool.usesContext || env.timeoutMs !== undefined
        ? await supervised(tool, args, env)
        : await tool.invoke(args, undefined);
  } catch (error) {
    return thrown(name, error, env);
  }
  const result = toCallResult(tool, value);
  if (!isProblem(result)) return result;
  env.report({ kind: "invalid-result", tool: name, message: result.message, value: result.value });
  return errorResult(
    `Tool "${name}" produced a result that does not match its output schema (a server bug; it was logged).`,
  );
}

/** Reasons the call's signal can carry. */
class TimeoutError extends Error {
  override readonly name = "TimeoutError";
}

/** Runs a tool with its own abort signal, linked to the request and to the timeout. */
async function supervised(tool: ManifestTool, args: unknown, env: CallEnvironment): Promise<unknown> {
  const controller = new AbortController();
  const { signal } = controller;
  const onCancel = () => controller.abort(env.requestSignal.reason ?? new Error("cancelled by the client"));
  if (env.requestSignal.aborted) onCancel();
  else env.requestSignal.addEventListener("abort", onCancel, { once: true });
  let timer: NodeJS.Timeout | undefined;
  if (env.timeoutMs !== undefined) {
    const ms = env.timeoutMs;
    timer = setTimeout(
      () => controller.abort(new TimeoutError(`Tool "${tool.definition.name}" timed out after ${ms} ms`)),
      ms,
    );
  }
  const aborted = new Promise<never>((_, reject) => {
    const fail = () => reject(signal.reason);
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
  try {
    const running = Promise.resolve().then(() =>
      tool.invoke(args, tool.usesContext ? env.context(signal) : undefined),
    );
    // The implementation may ignore its signal: its late outcome is dropped.
    running.catch(() => {});
    return await Promise.race([running, aborted]);
  } finally {
    clearTimeout(timer);
    env.requestSignal.removeEventListener("abort", onCancel);
  }
}

function thrown(name: string, error: unknown, env: CallEnvironment): CallToolResult {
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
