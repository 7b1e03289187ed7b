import type { Dialect } from "../../providers/dialects.ts";
import type { AgentMessage, ModelReply } from "../messages.ts";

/** One request to the model: the conversation and the tools in the adapter's dialect. */
export interface ModelRequest {
  system?: string;
  messages: readonly AgentMessage[];
  /** Tool definitions in `dialect` (Anthropic `tools[]`, OpenAI function tools). */
  tools: readonly Record<string, unknown>[];
}

/** Per-request options. */
export interface ModelCallOptions {
  signal?: AbortSignal;
  /** When set, the adapter streams and reports each piece of assistant text as it arrives. */
  onText?: (delta: string) => void;
}

/**
 * A chat model with tool use, behind a provider's official SDK. `anthropicModel()` and
 * `openaiModel()` build one; anything implementing this interface works.
 */
export interface ModelProvider {
  /** Provider name, for traces (`anthropic`, `openai`). */
  readonly provider: string;
  /** Model id sent with each request. */
  readonly model: string;
  /** Which generated tool definitions this provider takes. */
  readonly dialect: Dialect;
  /**
   * MIME types of images the model takes in user turns; default `IMAGE_TYPES` (PNG, JPEG, GIF,
   * WebP: what the Messages and Chat Completions APIs accept).
   */
  readonly imageTypes?: readonly string[];
  complete(request: ModelRequest, options?: ModelCallOptions): Promise<ModelReply>;
}
