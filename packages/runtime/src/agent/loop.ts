import { setMaxListeners } from "node:events";
import { type CallOutput, processCall, RetryBudget } from "./call.ts";
import { EventChannel } from "./channel.ts";
import { AgentError } from "./errors.ts";
import type { AgentEvent, AgentResult, StopReason } from "./events.ts";
import type { AgentMessage, ModelReply, ModelStop } from "./messages.ts";
import type { ModelProvider } from "./model/model.ts";
import type { AskPolicy, CanUseTool } from "./permission.ts";
import type { Toolset } from "./tools/toolset.ts";

/** Everything a run needs, resolved from the agent's options. */
export interface LoopConfig {
  model: ModelProvider;
  toolset: Toolset;
  system: string | undefined;
  maxSteps: number;
  maxRetries: number;
  timeoutMs: number | undefined;
  toolTimeoutsMs: Readonly<Record<string, number>>;
  canUseTool: CanUseTool | undefined;
  ask: AskPolicy;
  stream: boolean;
  /** `extract()`: remind a model that ends its turn without submitting, at most `maxNudges` times. */
  submit?: { nudge: string; maxNudges: number };
}

/** One run's input. */
export interface LoopInput {
  /** The messages of this turn (a user message, a prompt's messages, attached resources). */
  messages: readonly AgentMessage[];
  history?: readonly AgentMessage[];
  signal?: AbortSignal;
}

/** How a run ended, with the submitted value for `extract()`. */
export interface LoopOutcome {
  result: AgentResult;
  submitted?: Record<string, unknown>;
}

const STOP_OF: Record<ModelStop, StopReason> = {
  end_turn: "end_turn",
  tool_use: "end_turn",
  max_tokens: "max_tokens",
  refusal: "refusal",
  other: "other",
};

/**
 * The loop of the seeds: send the conversation and the tool definitions, run every tool call
 * of the reply concurrently, append the results, repeat until the model ends its turn (or a
 * limit is reached). Yields every event; returns the outcome.
 */
export async function* runLoop(
  config: LoopConfig,
  input: LoopInput,
): AsyncGenerator<AgentEvent, LoopOutcome> {
  const messages: AgentMessage[] = [...(input.history ?? []), ...input.messages];
  if (messages.length === 0) throw new AgentError("empty-conversation", "the run has no message to send");
  const controller = new AbortController();
  const stopWith = () => controller.abort(input.signal?.reason);
  if (input.signal?.aborted) stopWith();
  else input.signal?.addEventListener("abort", stopWith, { once: true });
  const signal = controller.signal;

  const budget = new RetryBudget(config.maxRetries);
  const usage = { inputTokens: 0, outputTokens: 0 };
  let steps = 0;
  let text = "";
  let nudges = 0;
  const done = (stopReason: StopReason, submitted?: Record<string, unknown>): LoopOutcome => ({
    result: { text, stopReason, steps, messages, usage },
    ...(submitted ? { submitted } : {}),
  });

  try {
    for (const message of config.toolset.warnings) yield { type: "warning", message };
    for (;;) {
      signal.throwIfAborted();
      if (steps >= config.maxSteps) return yield* final(done("max_steps"));
      const step = ++steps;
      yield { type: "model-request", step };
      const channel = new EventChannel<AgentEvent>();
      const reply: ModelReply = yield* channel.drain(
        guard(
          signal,
          config.model.complete(
            { system: config.system, messages, tools: config.toolset.definitions },
            {
              signal,
              ...(config.stream
                ? { onText: (t: string) => channel.push({ type: "text-delta", step, text: t }) }
                : {}),
            },
          ),
        ),
      );
      usage.inputTokens += reply.usage?.inputTokens ?? 0;
      usage.outputTokens += reply.usage?.outputTokens ?? 0;
      text = reply.text;
      messages.push({ role: "assistant", text: reply.text, toolCalls: reply.toolCalls });
      yield { type: "assistant", step, text: reply.text, toolCalls: reply.toolCalls, stop: reply.stop };

      if (reply.toolCalls.length === 0) {
        if (config.submit && reply.stop === "end_turn" && nudges < config.submit.maxNudges) {
          nudges++;
          messages.push({ role: "user", content: config.submit.nudge });
          continue;
        }
        return yield* final(done(STOP_OF[reply.stop]));
      }
      if (steps >= config.maxSteps) {
        messages.push({ role: "tool", results: reply.toolCalls.map((c) => skipped(c.id, c.name, steps)) });
        for (const c of reply.toolCalls)
          yield {
            type: "tool-result",
            step,
            id: c.id,
            name: c.name,
            outcome: "skipped",
            content: skippedText(steps),
            durationMs: 0,
          };
        return yield* final(done("max_steps"));
      }
      const env = {
        step,
        toolset: config.toolset,
        budget,
        canUseTool: config.canUseTool,
        ask: config.ask,
        timeoutOf: (t: { exposed: string }) => config.toolTimeoutsMs[t.exposed] ?? config.timeoutMs,
        signal,
        emit: channel.push,
      };
      // Each concurrent call listens to the run's signal for a while; that is no leak.
      setMaxListeners(10 + 4 * reply.toolCalls.length, signal);
      const outputs: CallOutput[] = yield* channel.drain(
        guard(signal, Promise.all(reply.toolCalls.map((c) => processCall(c, env)))),
      );
      messages.push({ role: "tool", results: outputs.map((o) => o.entry) });
      const submitted = outputs.find((o) => o.submitted)?.submitted;
      if (submitted) return yield* final(done("submitted", submitted.value));
      // extract() ends only with its submit tool: there, a final program's value is a plain result
      const answered = config.submit ? undefined : outputs.find((o) => o.answered)?.answered;
      if (answered) {
        // the answer as the assistant's reply, so the conversation continues like any other turn
        text = answered.text;
        messages.push({ role: "assistant", text, toolCalls: [] });
        yield { type: "assistant", step, text, toolCalls: [], stop: "end_turn" };
        return yield* final(done("answered"));
      }
      if (outputs.some((o) => o.exhausted)) return yield* final(done("retries_exhausted"));
    }
  } finally {
    input.signal?.removeEventListener("abort", stopWith);
    // A consumer that stops iterating early cancels whatever still runs.
    if (!signal.aborted) controller.abort(new Error("the run was closed"));
  }
}

async function* final(outcome: LoopOutcome): AsyncGenerator<AgentEvent, LoopOutcome> {
  yield { type: "final", result: outcome.result };
  return outcome;
}

/** Errors after cancellation surface as the cancellation's reason, whatever the SDK made of them. */
async function guard<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    signal.throwIfAborted();
    throw error;
  }
}

function skippedText(steps: number): string {
  return `Not run: the agent reached its limit of ${steps} steps.`;
}

function skipped(id: string, name: string, steps: number) {
  return { id, name, content: skippedText(steps), isError: true };
}
