import type { CallToolResult } from "@modelcontextprotocol/client";
import type { ValidationIssue } from "../validation/describe.ts";
import type { AgentMessage, ModelStop, ModelToolCall } from "./messages.ts";
import type { ToolAnnotations } from "./tools/toolset.ts";

/** Why a run ended. */
export type StopReason =
  /** The model answered (`end_turn`). */
  | "end_turn"
  /** `extract()`: the submit tool received a valid value. */
  | "submitted"
  /** Code mode with `finalAnswer`: a program the model sent with `final: true` ran, and its value is the answer. */
  | "answered"
  /** The step limit was reached while the model still wanted tools. */
  | "max_steps"
  /** A tool was called with invalid arguments more often than the retry budget allows. */
  | "retries_exhausted"
  /** The model hit its output limit. */
  | "max_tokens"
  /** The model refused (or the provider filtered the reply). */
  | "refusal"
  | "other";

/** What a finished run produced. */
export interface AgentResult {
  /** The last assistant text. */
  text: string;
  stopReason: StopReason;
  /** Model requests made. */
  steps: number;
  /** The whole conversation, including earlier `history`; pass it back to continue. */
  messages: AgentMessage[];
  usage: { inputTokens: number; outputTokens: number };
}

/** How a call ended, for traces and UIs. */
export type AgentCallOutcome = "ok" | "error" | "invalid" | "unknown-tool" | "denied" | "skipped";

/** Fields every tool-call event has. */
interface CallEventBase {
  step: number;
  /** The model's call id. */
  id: string;
  /** The tool name as the model called it. */
  name: string;
}

/**
 * The run as a stream of typed events (seed 003's message channel): assistant text, each tool
 * call and what became of it, permission requests, and the final answer.
 */
export type AgentEvent =
  | { type: "warning"; message: string }
  | { type: "model-request"; step: number }
  /** A piece of assistant text as it streams (with `stream: true`). */
  | { type: "text-delta"; step: number; text: string }
  /** A complete model reply. */
  | { type: "assistant"; step: number; text: string; toolCalls: ModelToolCall[]; stop: ModelStop }
  /** A tool call was received; `args` are parsed and normalised where that worked, else raw. */
  | (CallEventBase & {
      type: "tool-call";
      args: unknown;
      /** The targeted tool as `source/tool` (router calls resolve to the operation). */
      tool?: string;
      /** JSON slips that were repaired, e.g. `trailing comma`. */
      repairs: string[];
    })
  /** Arguments did not parse or validate: the tool did not run, the model gets the feedback. */
  | (CallEventBase & {
      type: "validation-error";
      message: string;
      issues: ValidationIssue[];
      /** Invalid calls of this tool in a row. */
      attempt: number;
      retriesLeft: number;
    })
  | (CallEventBase & {
      type: "permission-request";
      tool: string;
      args: Record<string, unknown>;
      annotations: ToolAnnotations;
    })
  | (CallEventBase & {
      type: "permission-decision";
      decision: "allow" | "edit" | "deny";
      reason?: string;
    })
  | (CallEventBase & { type: "tool-progress"; progress: number; total?: number; message?: string })
  | (CallEventBase & { type: "tool-log"; level: string; data: unknown })
  | (CallEventBase & {
      type: "tool-result";
      outcome: AgentCallOutcome;
      /** What the model reads. */
      content: string;
      /** The MCP result, when the tool ran. */
      result?: CallToolResult;
      /** Milliseconds from receiving the call to its result. */
      durationMs: number;
    })
  | { type: "final"; result: AgentResult };
