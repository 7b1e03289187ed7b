import type { ValidationIssue } from "../validation/describe.ts";
import type { AgentEvent, AgentResult } from "./events.ts";
import { type LoopConfig, type LoopOutcome, runLoop } from "./loop.ts";
import type { AgentMessage } from "./messages.ts";
import type { SubmitTool } from "./submit.ts";

/** Options of `agent.extract()`. */
export interface ExtractOptions {
  signal?: AbortSignal;
  history?: readonly AgentMessage[];
  /** Receives every event of the run (for traces). */
  onEvent?: (event: AgentEvent) => void;
}

/** One submit call that did not validate. */
export interface SubmitAttempt {
  /** The arguments as the model sent them (parsed where possible). */
  args: unknown;
  message: string;
  issues: ValidationIssue[];
}

/** `extract()` got no valid value: every failed attempt, and how the run ended. */
export class ExtractError extends Error {
  override readonly name = "ExtractError";
  constructor(
    message: string,
    readonly attempts: SubmitAttempt[],
    readonly result: AgentResult,
  ) {
    super(message);
  }
}

/**
 * Runs the loop with the submit tool offered next to the agent's tools (seed 003's
 * `submit_distill_spec`): the first valid submit call ends the run and its arguments are the
 * value. Invalid ones get feedback within the retry budget; a model that ends its turn without
 * submitting is reminded as often.
 */
export async function extractWith<T>(
  config: LoopConfig,
  submit: SubmitTool<T>,
  messages: readonly AgentMessage[],
  options: ExtractOptions,
): Promise<T> {
  const name = submit.definition.name;
  const instruction = `Deliver the result by calling the tool "${name}" with it.`;
  const loop = runLoop(
    {
      ...config,
      system: config.system ? `${config.system}\n\n${instruction}` : instruction,
      submit: { nudge: `${instruction} It is the only way to deliver it.`, maxNudges: config.maxRetries },
    },
    {
      messages,
      ...(options.history ? { history: options.history } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  const argsById = new Map<string, unknown>();
  const attempts: SubmitAttempt[] = [];
  let outcome: LoopOutcome;
  for (;;) {
    const next = await loop.next();
    if (next.done) {
      outcome = next.value;
      break;
    }
    const event = next.value;
    options.onEvent?.(event);
    if (event.type === "tool-call" && event.name === name) argsById.set(event.id, event.args);
    if (event.type === "validation-error" && event.name === name)
      attempts.push({ args: argsById.get(event.id), message: event.message, issues: event.issues });
  }
  if (outcome.submitted) return outcome.submitted as T;
  const why =
    attempts.length > 0
      ? `the model did not send a valid value for "${name}" (${attempts.length} invalid ${attempts.length === 1 ? "attempt" : "attempts"}; stop: ${outcome.result.stopReason})`
      : `the model ended without calling "${name}" (stop: ${outcome.result.stopReason})`;
  const details = attempts.map((a, i) => `\nattempt ${i + 1}: ${a.message}`).join("");
  throw new ExtractError(`extract failed: ${why}${details}`, attempts, outcome.result);
}
