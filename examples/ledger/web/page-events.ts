import type { AgentEvent } from "@mcp-gen/runtime/agent";
import type { Balance } from "../tools.ts";

/**
 * What the page receives while a message runs: one JSON object per line (NDJSON). A subset of
 * the agent's events, flattened for rendering, plus the balances after each tool result.
 */
export type PageEvent =
  /** A piece of assistant text as the model streams it. */
  | { type: "text"; step: number; text: string }
  /** The complete text of one model reply. */
  | { type: "assistant"; step: number; text: string }
  | { type: "tool-call"; id: string; name: string; args: unknown }
  /** The call waits for the user: answer with `POST /api/permission`. */
  | { type: "permission-request"; id: string; name: string; args: Record<string, unknown> }
  | { type: "permission-decision"; id: string; decision: "allow" | "edit" | "deny"; reason?: string }
  /** The arguments were refused by the tool's schema; the model reads `message`. */
  | { type: "validation-error"; id: string; name: string; message: string }
  | {
      type: "tool-result";
      id: string;
      name: string;
      outcome: string;
      /** What the model reads. */
      content: string;
      /** The tool's structured result, when it ran and returned one. */
      structured?: unknown;
    }
  | { type: "balances"; accounts: Balance[] }
  | { type: "final"; text: string; stopReason: string }
  | { type: "error"; message: string };

/** The page's view of an agent event; `undefined` for events the page does not show. */
export function toPageEvent(event: AgentEvent): PageEvent | undefined {
  switch (event.type) {
    case "text-delta":
      return { type: "text", step: event.step, text: event.text };
    case "assistant":
      return { type: "assistant", step: event.step, text: event.text };
    case "tool-call":
      return { type: "tool-call", id: event.id, name: event.name, args: event.args };
    case "permission-request":
      return { type: "permission-request", id: event.id, name: event.name, args: event.args };
    case "permission-decision":
      return {
        type: "permission-decision",
        id: event.id,
        decision: event.decision,
        ...(event.reason ? { reason: event.reason } : {}),
      };
    case "validation-error":
      return { type: "validation-error", id: event.id, name: event.name, message: event.message };
    case "tool-result":
      return {
        type: "tool-result",
        id: event.id,
        name: event.name,
        outcome: event.outcome,
        content: event.content,
        ...(event.result?.structuredContent !== undefined
          ? { structured: event.result.structuredContent }
          : {}),
      };
    case "final":
      return { type: "final", text: event.result.text, stopReason: event.result.stopReason };
    default:
      return undefined;
  }
}
