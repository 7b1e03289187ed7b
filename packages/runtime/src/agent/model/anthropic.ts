import type Anthropic from "@anthropic-ai/sdk";
import type {
  ContentBlockParam,
  Message,
  MessageParam,
  RawMessageStreamEvent,
  Tool,
} from "@anthropic-ai/sdk/resources/messages";
import { parseToolArguments } from "../arguments.ts";
import { wireParts } from "../context/render.ts";
import type { AgentMessage, ModelReply, ModelStop, UserMessage } from "../messages.ts";
import type { ModelCallOptions, ModelProvider, ModelRequest } from "./model.ts";
import { importPeer } from "./peer.ts";

/** Options of `anthropicModel()`. */
export interface AnthropicModelOptions {
  /** Model id, e.g. `claude-sonnet-5-5`. */
  model: string;
  /** Default: `ANTHROPIC_API_KEY` (or `ANTHROPIC_AUTH_TOKEN`), as the SDK reads them. */
  apiKey?: string;
  /** Default: `ANTHROPIC_BASE_URL`, else the Anthropic API. Any Messages-compatible endpoint works. */
  baseURL?: string;
  /** `max_tokens` of each request. Default 4096. */
  maxTokens?: number;
  /** A configured SDK client to use instead of building one. */
  client?: Anthropic;
}

/**
 * A model behind the Anthropic Messages API, through the official `@anthropic-ai/sdk`.
 *
 * @example
 * const agent = createAgent({ model: anthropicModel({ model: "claude-sonnet-5-5" }), tools: [manifest] });
 */
export function anthropicModel(options: AnthropicModelOptions): ModelProvider {
  // The SDK is an optional peer dependency, loaded on the first request (see peer.ts).
  let created: Promise<Anthropic> | undefined;
  const sdkClient = (): Promise<Anthropic> =>
    (created ??= options.client
      ? Promise.resolve(options.client)
      : importPeer("@anthropic-ai/sdk", "anthropicModel", () => import("@anthropic-ai/sdk")).then(
          ({ default: Sdk }) =>
            new Sdk({
              ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
              ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
            }),
        ));
  const maxTokens = options.maxTokens ?? 4096;
  return {
    provider: "anthropic",
    model: options.model,
    dialect: "anthropic",
    async complete(request: ModelRequest, call: ModelCallOptions = {}): Promise<ModelReply> {
      const body = {
        model: options.model,
        max_tokens: maxTokens,
        messages: toAnthropicMessages(request.messages),
        ...(request.system ? { system: request.system } : {}),
        ...(request.tools.length > 0 ? { tools: request.tools as unknown as Tool[] } : {}),
      };
      const requestOptions = call.signal ? { signal: call.signal } : {};
      const client = await sdkClient();
      if (!call.onText) return fromMessage(await client.messages.create(body, requestOptions));
      const stream = await client.messages.create({ ...body, stream: true }, requestOptions);
      const reply = await fromEvents(stream, call.onText);
      // The SDK ends an aborted stream quietly.
      call.signal?.throwIfAborted();
      return reply;
    },
  };
}

/**
 * The conversation as Messages API `messages` (tool results ride in user turns, first);
 * consecutive messages of one role become one turn.
 */
export function toAnthropicMessages(messages: readonly AgentMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  const pushUser = (blocks: ContentBlockParam[]) => {
    const last = out.at(-1);
    if (last?.role === "user" && Array.isArray(last.content)) last.content.push(...blocks);
    else out.push({ role: "user", content: blocks });
  };
  for (const message of messages) {
    if (message.role === "user") pushUser(userBlocks(message));
    else if (message.role === "tool")
      pushUser(
        message.results.map((r) => ({
          type: "tool_result" as const,
          tool_use_id: r.id,
          content: r.content,
          ...(r.isError ? { is_error: true } : {}),
        })),
      );
    else {
      const blocks: ContentBlockParam[] = [];
      if (message.text) blocks.push({ type: "text", text: message.text });
      for (const c of message.toolCalls)
        blocks.push({ type: "tool_use", id: c.id, name: c.name, input: inputObject(c.arguments) });
      if (blocks.length === 0) blocks.push({ type: "text", text: "(no reply)" });
      // Consecutive assistant messages (a prompt's) are one turn, as the API would combine them.
      const last = out.at(-1);
      if (
        last?.role === "assistant" &&
        Array.isArray(last.content) &&
        !last.content.some((b) => b.type === "tool_use")
      )
        last.content.push(...blocks);
      else out.push({ role: "assistant", content: blocks });
    }
  }
  return out;
}

/** A user message's blocks: text, and images as base64 `image` blocks. */
function userBlocks(message: UserMessage): ContentBlockParam[] {
  if (typeof message.content === "string") return [{ type: "text", text: message.content }];
  return wireParts(message.content).map(
    (part): ContentBlockParam =>
      part.type === "text"
        ? { type: "text", text: part.text }
        : {
            type: "image",
            source: { type: "base64", media_type: part.mimeType as ImageMediaType, data: part.data },
          },
  );
}

type ImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

/** `tool_use.input` must be an object on the wire; text the model streamed is parsed (tolerantly) back. */
function inputObject(args: unknown): Record<string, unknown> {
  const parsed = parseToolArguments(args);
  const value = parsed.ok ? parsed.value : undefined;
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

const STOPS: Record<string, ModelStop> = {
  end_turn: "end_turn",
  stop_sequence: "end_turn",
  tool_use: "tool_use",
  max_tokens: "max_tokens",
  model_context_window_exceeded: "max_tokens",
  refusal: "refusal",
};

function fromMessage(message: Message): ModelReply {
  const texts: string[] = [];
  const toolCalls: ModelReply["toolCalls"] = [];
  for (const block of message.content) {
    if (block.type === "text") texts.push(block.text);
    else if (block.type === "tool_use")
      toolCalls.push({ id: block.id, name: block.name, arguments: block.input });
  }
  const raw = message.stop_reason ?? null;
  return {
    text: texts.join(""),
    toolCalls,
    stop: (raw && STOPS[raw]) || "other",
    rawStopReason: raw,
    ...(message.usage
      ? { usage: { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens } }
      : {}),
  };
}

/**
 * Accumulates a streamed reply from the raw events. Tool input is kept as the JSON text the
 * model streamed, so slips in it reach the tolerant argument parser instead of failing here.
 */
async function fromEvents(
  events: AsyncIterable<RawMessageStreamEvent>,
  onText: (delta: string) => void,
): Promise<ModelReply> {
  const texts: string[] = [];
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  let raw: string | null = null;
  let usage = { inputTokens: 0, outputTokens: 0 };
  for await (const event of events) {
    switch (event.type) {
      case "message_start":
        usage = {
          inputTokens: event.message.usage.input_tokens,
          outputTokens: event.message.usage.output_tokens,
        };
        break;
      case "content_block_start":
        if (event.content_block.type === "tool_use")
          calls.set(event.index, {
            id: event.content_block.id,
            name: event.content_block.name,
            arguments: "",
          });
        break;
      case "content_block_delta":
        if (event.delta.type === "text_delta") {
          texts.push(event.delta.text);
          onText(event.delta.text);
        } else if (event.delta.type === "input_json_delta") {
          const call = calls.get(event.index);
          if (call) call.arguments += event.delta.partial_json;
        }
        break;
      case "message_delta":
        raw = event.delta.stop_reason ?? raw;
        usage.outputTokens = event.usage.output_tokens;
        break;
    }
  }
  return {
    text: texts.join(""),
    toolCalls: [...calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => c),
    stop: (raw && STOPS[raw]) || "other",
    rawStopReason: raw,
    usage,
  };
}
