import type { ProtocolEra } from "@modelcontextprotocol/server";
import {
  type CallToolResult,
  MissingRequiredClientCapabilityError,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { ToolContext } from "../context.ts";
import { ToolError } from "../tool-error.ts";
import { formatIssues } from "../validation/format.ts";
import type { OutcomeNote } from "./call-log.ts";
import { execute } from "./execute.ts";
import { type ArgumentLimits, unsafeArguments } from "./guard.ts";
import type { InputChannel } from "./input/channel.ts";
import { type Invocation, type Outcome, TimeoutError } from "./invocation.ts";
import type { ManifestTool } from "./manifest.ts";
import type { McpGenServerEvent } from "./options.ts";
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
  /** How a call with a context reaches its client (its era's channel); none in process or without a context. */
  channel?(invocation: Invocation<unknown>): InputChannel | undefined;
  report(event: McpGenServerEvent): void;
  /** Where the call notes how it ended beyond its result (for the call log). */
  note?: OutcomeNote;
}

/**
 * Runs one tool call: arguments are checked (safety, then schema) before the implementation
 * is touched; an invalid call returns the validator's feedback as an `isError` result and
 * never executes. Thrown errors and timeouts become `isError` results too. `validated`: the
 * caller already checked the arguments with this tool's own input validator (code mode's
 * bridge), so only the safety walk runs again.
 */
export async function callTool(
  tool: ManifestTool,
  rawArgs: unknown,
  env: CallEnvironment,
  options: { validated?: boolean; target?: Target<CallToolResult> } = {},
): Promise<CallToolResult> {
  const checked = checkArguments(tool, rawArgs, env, options.validated === true);
  if (!checked.ok) return checked.result;
  const target = options.target ?? toolTarget(tool);
  return execute({ target, args: checked.args, env }) as Promise<CallToolResult>;
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
  /**
   * Safe to run again from the start (a tool's `readOnlyHint` or `idempotentHint`): with shared
   * state, its 2026-07-28 `input_required` retries may reach any replica.
   */
  readonly rerunnable?: boolean;
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
    rerunnable:
      tool.definition.annotations?.readOnlyHint === true ||
      tool.definition.annotations?.idempotentHint === true,
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
  validated = false,
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
  if (validated) return { ok: true, args };
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
