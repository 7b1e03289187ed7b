/** A tool call a scripted model makes. */
export interface ScriptedToolCall {
  /** Default: a deterministic id (`toolu_<request>_<n>` / `call_<request>_<n>`). */
  id?: string;
  name: string;
  /**
   * The arguments: an object, or text sent exactly as given (OpenAI `function.arguments`; for
   * Anthropic, text that is not a JSON object travels as the `input` string) — to script the
   * slips real models make (code fences, trailing commas).
   */
  arguments?: unknown;
}

/** One scripted reply. */
export interface ScriptedReply {
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Default: `tool_use` when there are tool calls, else `end_turn`. */
  stop?: "end_turn" | "tool_use" | "max_tokens";
  /** Answer with an HTTP error instead (the provider's error body). */
  error?: { status: number; message: string };
}

/** What a scripted step sees of the request it answers, the same for both APIs. */
export interface ScriptedRequest {
  api: "anthropic" | "openai";
  /** 0-based position among the requests this server received. */
  index: number;
  stream: boolean;
  model: string;
  system: string | undefined;
  /** Names of the offered tools. */
  tools: string[];
  /** The request body as received. */
  body: any;
  /** Text of the last user message (`undefined` when the last turn carries tool results only). */
  lastUserText: string | undefined;
  /** Tool results sent since the last assistant message, in order. */
  toolResults: { id: string; content: string; isError: boolean }[];
}

/** A reply, or a function computing it from the request (e.g. to echo an id a tool returned). */
export type ScriptStep =
  | ScriptedReply
  | ((request: ScriptedRequest) => ScriptedReply | Promise<ScriptedReply>);

/** Splits text into pieces of `size` characters (code points), for streamed deltas. */
export function chunks(text: string, size: number): string[] {
  const points = [...text];
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(""));
  return out;
}
