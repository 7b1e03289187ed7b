/**
 * The conversation as the agent keeps it, independent of the provider: each model adapter
 * translates it to its wire format (Anthropic `tool_use`/`tool_result` blocks, OpenAI
 * `tool_calls` and `tool` messages). Pass `result.messages` back as `history` to continue.
 */
export type AgentMessage = UserMessage | AssistantMessage | ToolResultsMessage;

export interface UserMessage {
  role: "user";
  /** Text, or blocks: text, images, and resources read into the conversation as context. */
  content: string | UserContent[];
}

/** A block of a user message. */
export type UserContent = AgentTextContent | AgentImageContent | ResourceContent;

export interface AgentTextContent {
  type: "text";
  text: string;
}

/** An image the model is shown (a MIME type it accepts, see `ModelProvider.imageTypes`). */
export interface AgentImageContent {
  type: "image";
  mimeType: string;
  /** Base64 data. */
  data: string;
}

/**
 * A resource read into the conversation (`agent.attachResource()`, a prompt's embedded resource).
 * The model reads it as a context block naming the URI and MIME type:
 * `<resource uri="…" mimeType="…">text</resource>`, an image between the two tags.
 */
export interface ResourceContent {
  type: "resource";
  uri: string;
  mimeType?: string;
  /** The text (JSON as its text, a text blob decoded, or the description of a blob not shown). */
  text?: string;
  /** Base64 data of an image resource; set instead of `text`. */
  image?: string;
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
