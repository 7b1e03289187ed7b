import type { CallToolResult } from "@modelcontextprotocol/client";
import { errorResult } from "../server/result.ts";
import type { ValidationIssue } from "../validation/describe.ts";
import { parseToolArguments } from "./arguments.ts";
import type { AgentCallOutcome, AgentEvent } from "./events.ts";
import type { ModelToolCall, ToolResultEntry } from "./messages.ts";
import { type AskPolicy, type CanUseTool, needsPermission, noHookDecision } from "./permission.ts";
import { resultText } from "./result-text.ts";
import type { ToolNotice } from "./tools/agent-tool.ts";
import type { OfferedTool, Toolset } from "./tools/toolset.ts";

/** Invalid calls in a row, per tool; a valid call resets its count. */
export class RetryBudget {
  private readonly failures = new Map<string, number>();
  constructor(readonly maxRetries: number) {}
  fail(key: string): number {
    const n = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, n);
    return n;
  }
  reset(key: string): void {
    this.failures.delete(key);
  }
}

/** What one call needs from its run. */
export interface CallEnvironment {
  step: number;
  toolset: Toolset;
  budget: RetryBudget;
  canUseTool: CanUseTool | undefined;
  ask: AskPolicy;
  timeoutOf(tool: OfferedTool): number | undefined;
  signal: AbortSignal;
  emit(event: AgentEvent): void;
}

/** What became of one call. */
export interface CallOutput {
  entry: ToolResultEntry;
  outcome: AgentCallOutcome;
  /** The call went over the retry budget. */
  exhausted: boolean;
  /** A valid call of a terminal (submit) tool: its validated arguments. */
  submitted?: { value: Record<string, unknown> };
  /** The tool delivered the final answer of the turn (code mode's `final: true`). */
  answered?: { text: string };
}

/**
 * Handles one tool call: parse (tolerant), route and normalise, validate, ask permission,
 * execute. Invalid arguments never reach the tool: the model gets the validator's feedback as
 * an error result instead, within the retry budget.
 */
export async function processCall(call: ModelToolCall, env: CallEnvironment): Promise<CallOutput> {
  const started = performance.now();
  const base = { step: env.step, id: call.id, name: call.name };
  const finish = (outcome: AgentCallOutcome, content: string, result?: CallToolResult, exhausted = false) => {
    env.emit({
      type: "tool-result",
      ...base,
      outcome,
      content,
      ...(result ? { result } : {}),
      durationMs: performance.now() - started,
    });
    const isError = outcome !== "ok";
    return { entry: { id: call.id, name: call.name, content, isError }, outcome, exhausted };
  };
  const invalid = (key: string, message: string, issues: ValidationIssue[], outcome: AgentCallOutcome) => {
    const attempt = env.budget.fail(key);
    const retriesLeft = Math.max(0, env.budget.maxRetries + 1 - attempt);
    const exhausted = attempt > env.budget.maxRetries;
    if (outcome === "invalid")
      env.emit({ type: "validation-error", ...base, message, issues, attempt, retriesLeft });
    const advice = exhausted
      ? "The tool was not run, and this call will not be retried in this run."
      : `The tool was not run. Correct the call and send it again (${retriesLeft} ${retriesLeft === 1 ? "retry" : "retries"} left).`;
    return finish(outcome, `${message}\n${advice}`, undefined, exhausted);
  };

  const parsed = parseToolArguments(call.arguments);
  if (!parsed.ok) {
    env.emit({ type: "tool-call", ...base, args: call.arguments, repairs: [] });
    return invalid(call.name, parsed.message, [], "invalid");
  }
  const routed = env.toolset.route(call.name, parsed.value);
  if (!routed.ok) {
    env.emit({ type: "tool-call", ...base, args: parsed.value, repairs: parsed.repairs });
    return invalid(routed.key, routed.message, routed.issues, routed.reason);
  }
  const target = routed.target;
  const key = target.exposed;
  env.emit({
    type: "tool-call",
    ...base,
    args: routed.args,
    tool: `${target.source}/${target.tool.name}`,
    repairs: parsed.repairs,
  });
  const checked = target.tool.input.check(routed.args);
  if (!checked.ok) {
    const message = routed.feedbackPrefix ? `${routed.feedbackPrefix}: ${checked.message}` : checked.message;
    return invalid(key, message, checked.issues, "invalid");
  }
  env.budget.reset(key);
  let args = checked.value as Record<string, unknown>;

  if (needsPermission(target.annotations, env.ask)) {
    env.emit({
      type: "permission-request",
      ...base,
      tool: target.exposed,
      args,
      annotations: target.annotations,
    });
    const decision = env.canUseTool
      ? await env.canUseTool(target.exposed, args, target.annotations, {
          callId: call.id,
          source: target.source,
          tool: target.tool.name,
          signal: env.signal,
        })
      : noHookDecision(target.exposed);
    env.signal.throwIfAborted();
    if (decision.behavior === "deny") {
      env.emit({ type: "permission-decision", ...base, decision: "deny", reason: decision.reason });
      return finish("denied", `Permission denied: ${decision.reason}`);
    }
    if ("args" in decision) {
      const edited = target.tool.input.check(decision.args);
      if (!edited.ok) {
        const reason = `the permission hook changed the arguments into an invalid form (${edited.message})`;
        env.emit({ type: "permission-decision", ...base, decision: "deny", reason });
        return finish("denied", `Permission denied: ${reason}`);
      }
      args = edited.value as Record<string, unknown>;
      env.emit({ type: "permission-decision", ...base, decision: "edit" });
    } else env.emit({ type: "permission-decision", ...base, decision: "allow" });
  }

  let result: CallToolResult;
  let answered: { text: string } | undefined;
  try {
    result = await target.tool.execute(args, {
      callId: call.id,
      signal: env.signal,
      timeoutMs: env.timeoutOf(target),
      notify: (notice) => emitNotice(env, base, notice),
      answer: (text) => {
        answered = { text };
      },
    });
  } catch (error) {
    env.signal.throwIfAborted();
    result = errorResult(`Tool "${call.name}" failed: ${(error as Error).message ?? String(error)}`);
  }
  env.signal.throwIfAborted();
  const output = finish(result.isError ? "error" : "ok", resultText(result), result);
  if (answered && !result.isError) return { ...output, answered };
  return target.terminal && !result.isError ? { ...output, submitted: { value: args } } : output;
}

function emitNotice(env: CallEnvironment, base: { step: number; id: string; name: string }, n: ToolNotice) {
  if (n.kind === "warning") env.emit({ type: "warning", message: n.message });
  else if (n.kind === "log") env.emit({ type: "tool-log", ...base, level: n.level, data: n.data });
  else
    env.emit({
      type: "tool-progress",
      ...base,
      progress: n.progress,
      ...(n.total !== undefined ? { total: n.total } : {}),
      ...(n.message !== undefined ? { message: n.message } : {}),
    });
}
