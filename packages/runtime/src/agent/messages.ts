/**
 * The conversation as the agent keeps it, independent of the provider: each model adapter
 * translates it to its wire format (Anthropic `tool_use`/`tool_result` blocks, OpenAI
 * `tool_calls` and `tool` messages). Pass `result.messages` back as `history` to continue.
 */
export type AgentMessage = UserMessage | AssistantMessage | ToolResultsMessage;

export interface UserMessage {
  role: "user";
  content: string;
}

/** A tool call exactly as the model sent it. */
export interface ModelToolCall {
  /** The provider's call id (`toolu_…`, `call_…`). */
  id: string;
  /** The tool name the model used (as offered: namespaced, or `mcp_query` in router mode). */
  name: string;
  /** An object (Anthropic `input`) or JSON text (OpenAI `function.arguments`), unparsed. */
  arguments: unknown;
}

export interface AssistantMessage {
  role: "assistant";
  /** The reply's text ("" when the model only called tools). */
  text: string;
  toolCalls: ModelToolCall[];
}

/** What one call produced, as the model will read it. */
export interface ToolResultEntry {
  /** Id of the call this answers. */
  id: string;
  name: string;
  /** Text the model reads: the result, the validation feedback or the error. */
  content: string;
  isError: boolean;
}

/** The results of every call of the previous assistant message, in call order. */
export interface ToolResultsMessage {
  role: "tool";
  results: ToolResultEntry[];
}

/** Why the model stopped, as the agent reports it (the provider's own value is in `rawStopReason`). */
export type ModelStop = "end_turn" | "tool_use" | "max_tokens" | "refusal" | "other";

/** One reply of the model. */
export interface ModelReply {
  text: string;
  toolCalls: ModelToolCall[];
  stop: ModelStop;
  /** The provider's stop value, e.g. `end_turn`, `tool_calls`, `length`. */
  rawStopReason: string | null;
  usage?: { inputTokens: number; outputTokens: number };
}
