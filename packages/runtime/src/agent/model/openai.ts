import type OpenAI from "openai";
import type {
  ChatCompletion,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import { wireParts } from "../context/render.ts";
import type { AgentMessage, ModelReply, ModelStop, ModelToolCall, UserMessage } from "../messages.ts";
import type { ModelCallOptions, ModelProvider, ModelRequest } from "./model.ts";
import { importPeer } from "./peer.ts";

/** Options of `openaiModel()`. */
export interface OpenAiModelOptions {
  /** Model id, e.g. `gpt-5.4`. */
  model: string;
  /** Default: `OPENAI_API_KEY`, as the SDK reads it. */
  apiKey?: string;
  /** Default: `OPENAI_BASE_URL`, else the OpenAI API. Any Chat Completions-compatible endpoint works. */
  baseURL?: string;
  /** Send the `openai-strict` definitions (Structured Outputs for tool arguments). Default `false`. */
  strict?: boolean;
  /** `max_completion_tokens` of each request; unset by default. */
  maxTokens?: number;
  /** A configured SDK client to use instead of building one. */
  client?: OpenAI;
}

/**
 * A model behind the OpenAI Chat Completions API, through the official `openai` package.
 *
 * @example
 * const agent = createAgent({ model: openaiModel({ model: "gpt-5.4" }), tools: [manifest] });
 */
export function openaiModel(options: OpenAiModelOptions): ModelProvider {
  // The SDK is an optional peer dependency, loaded on the first request (see peer.ts).
  let created: Promise<OpenAI> | undefined;
  const sdkClient = (): Promise<OpenAI> =>
    (created ??= options.client
      ? Promise.resolve(options.client)
      : importPeer("openai", "openaiModel", () => import("openai")).then(
          ({ default: Sdk }) =>
            new Sdk({
              ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
              ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
            }),
        ));
  return {
    provider: "openai",
    model: options.model,
    dialect: options.strict ? "openai-strict" : "openai",
    async complete(request: ModelRequest, call: ModelCallOptions = {}): Promise<ModelReply> {
      const body = {
        model: options.model,
        messages: toOpenAiMessages(request.system, request.messages),
        ...(request.tools.length > 0 ? { tools: request.tools as unknown as ChatCompletionTool[] } : {}),
        ...(options.maxTokens !== undefined ? { max_completion_tokens: options.maxTokens } : {}),
      };
      const requestOptions = call.signal ? { signal: call.signal } : {};
      const client = await sdkClient();
      if (!call.onText) return fromCompletion(await client.chat.completions.create(body, requestOptions));
      const stream = await client.chat.completions.create(
        { ...body, stream: true, stream_options: { include_usage: true } },
        requestOptions,
      );
      const text: string[] = [];
      const calls: { id: string; name: string; arguments: string }[] = [];
      let finish: string | null = null;
      let usage: ModelReply["usage"];
      for await (const chunk of stream) {
        if (chunk.usage)
          usage = { inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
        const choice = chunk.choices[0];
        if (!choice) continue;
        if (choice.delta.content) {
          text.push(choice.delta.content);
          call.onText(choice.delta.content);
        }
        for (const piece of choice.delta.tool_calls ?? []) {
          const slot = calls[piece.index] ?? { id: "", name: "", arguments: "" };
          calls[piece.index] = slot;
          if (piece.id) slot.id = piece.id;
          if (piece.function?.name) slot.name += piece.function.name;
          if (piece.function?.arguments) slot.arguments += piece.function.arguments;
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
      call.signal?.throwIfAborted();
      return reply(text.join(""), calls.filter(Boolean), finish, usage);
    },
  };
}

/** The conversation as Chat Completions `messages` (one `tool` message per result). */
export function toOpenAiMessages(
  system: string | undefined,
  messages: readonly AgentMessage[],
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = system ? [{ role: "system", content: system }] : [];
  for (const message of messages) {
    if (message.role === "user") out.push({ role: "user", content: userContent(message) });
    else if (message.role === "tool")
      for (const r of message.results)
        out.push({
          role: "tool",
          tool_call_id: r.id,
          content: r.isError ? `Error: ${r.content}` : r.content,
        });
    else
      out.push({
        role: "assistant",
        content: message.text || null,
        ...(message.toolCalls.length > 0
          ? {
              tool_calls: message.toolCalls.map((c) => ({
                id: c.id,
                type: "function" as const,
                function: { name: c.name, arguments: argumentsText(c.arguments) },
              })),
            }
          : {}),
      });
  }
  return out;
}

/** A user message's content: its text, or parts (images as `data:` URLs). */
function userContent(message: UserMessage): string | ChatCompletionContentPart[] {
  if (typeof message.content === "string") return message.content;
  return wireParts(message.content).map(
    (part): ChatCompletionContentPart =>
      part.type === "text"
        ? { type: "text", text: part.text }
        : { type: "image_url", image_url: { url: `data:${part.mimeType};base64,${part.data}` } },
  );
}

function argumentsText(args: unknown): string {
  return typeof args === "string" ? args : (JSON.stringify(args) ?? "{}");
}

const STOPS: Record<string, ModelStop> = {
  stop: "end_turn",
  tool_calls: "tool_use",
  function_call: "tool_use",
  length: "max_tokens",
  content_filter: "refusal",
};

function fromCompletion(completion: ChatCompletion): ModelReply {
  const choice = completion.choices[0];
  const calls = (choice?.message.tool_calls ?? []).flatMap((c) =>
    c.type === "function" ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : [],
  );
  const usage = completion.usage
    ? { inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens }
    : undefined;
  return reply(choice?.message.content ?? "", calls, choice?.finish_reason ?? null, usage);
}

function reply(
  text: string,
  toolCalls: ModelToolCall[],
  raw: string | null,
  usage: ModelReply["usage"],
): ModelReply {
  return {
    text,
    toolCalls,
    stop: (raw && STOPS[raw]) || "other",
    rawStopReason: raw,
    ...(usage ? { usage } : {}),
  };
}
