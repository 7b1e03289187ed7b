import { chunks, type ScriptedReply, type ScriptedRequest } from "./script.ts";

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

type Block = { type: string; [key: string]: unknown };
type Message = { role: string; content: string | Block[] };

/**
 * Checks a Messages API request the way the API does for what an agent loop can get wrong:
 * required fields, tool names, and every `tool_use` answered by a `tool_result` (first in the
 * next user turn) and no `tool_result` without its `tool_use`. Returns the problem, if any.
 */
export function checkAnthropicRequest(body: any): string | undefined {
  if (typeof body?.model !== "string") return "model: Field required";
  if (typeof body.max_tokens !== "number") return "max_tokens: Field required";
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    return "messages: at least one message is required";
  const names = new Set<string>();
  for (const [i, tool] of (body.tools ?? []).entries()) {
    if (!NAME.test(tool?.name)) return `tools.${i}.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`;
    if (names.has(tool.name)) return `tools: Tool names must be unique (${tool.name})`;
    names.add(tool.name);
    if (tool.input_schema?.type !== "object") return `tools.${i}.input_schema.type: Input should be 'object'`;
  }
  const messages = body.messages as Message[];
  if (messages[0]!.role !== "user") return "messages.0.role: the first message must use the user role";
  for (let i = 0; i < messages.length; i++) {
    const blocks = blocksOf(messages[i]!);
    const previous = i > 0 ? blocksOf(messages[i - 1]!) : [];
    if (messages[i]!.role === "user") {
      const offered = new Set(previous.filter((b) => b.type === "tool_use").map((b) => b.id as string));
      let seenOther = false;
      for (const b of blocks) {
        if (b.type !== "tool_result") {
          seenOther = true;
          continue;
        }
        if (seenOther) return `messages.${i}: tool_result blocks must come first in the user turn`;
        if (!offered.has(b.tool_use_id as string))
          return `messages.${i}: unexpected tool_use_id found in tool_result blocks: ${b.tool_use_id}`;
      }
    }
    if (messages[i]!.role === "assistant") {
      const uses = blocks.filter((b) => b.type === "tool_use");
      for (const u of uses)
        if (typeof u.input !== "object" || u.input === null)
          return `messages.${i}: tool_use.input must be an object`;
      if (uses.length === 0) continue;
      const next = messages[i + 1];
      const answered = new Set(
        next?.role === "user"
          ? blocksOf(next)
              .filter((b) => b.type === "tool_result")
              .map((b) => b.tool_use_id)
          : [],
      );
      const missing = uses.find((u) => !answered.has(u.id));
      if (missing)
        return `messages.${i + 1}: tool_use ids were found without tool_result blocks immediately after: ${missing.id}`;
    }
  }
  return undefined;
}

function blocksOf(message: Message): Block[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

/** The neutral view of a Messages API request. */
export function viewAnthropicRequest(body: any, index: number): ScriptedRequest {
  const messages = (body.messages ?? []) as Message[];
  const last = messages.at(-1);
  const blocks = last && last.role === "user" ? blocksOf(last) : [];
  const texts = blocks.filter((b) => b.type === "text").map((b) => b.text as string);
  return {
    api: "anthropic",
    index,
    stream: body.stream === true,
    model: body.model,
    system: typeof body.system === "string" ? body.system : body.system?.map((b: Block) => b.text).join("\n"),
    tools: (body.tools ?? []).map((t: { name: string }) => t.name),
    body,
    lastUserText: texts.length > 0 ? texts.join("\n") : undefined,
    toolResults: blocks
      .filter((b) => b.type === "tool_result")
      .map((b) => ({
        id: b.tool_use_id as string,
        content:
          typeof b.content === "string"
            ? b.content
            : ((b.content as Block[]) ?? []).map((c) => c.text).join(""),
        isError: b.is_error === true,
      })),
  };
}

function contentOf(reply: ScriptedReply, index: number): Block[] {
  const blocks: Block[] = [];
  if (reply.text) blocks.push({ type: "text", text: reply.text });
  (reply.toolCalls ?? []).forEach((c, n) => {
    blocks.push({
      type: "tool_use",
      id: c.id ?? `toolu_${index}_${n}`,
      name: c.name,
      input: inputOf(c.arguments),
    });
  });
  return blocks;
}

function inputOf(args: unknown): unknown {
  if (typeof args !== "string") return args ?? {};
  try {
    const parsed: unknown = JSON.parse(args);
    return parsed !== null && typeof parsed === "object" ? parsed : args;
  } catch {
    return args;
  }
}

function stopOf(reply: ScriptedReply): string {
  return reply.stop ?? ((reply.toolCalls ?? []).length > 0 ? "tool_use" : "end_turn");
}

/** A non-streaming Messages API response. */
export function anthropicMessage(reply: ScriptedReply, request: ScriptedRequest): object {
  return {
    id: `msg_${request.index}`,
    type: "message",
    role: "assistant",
    model: request.model,
    content: contentOf(reply, request.index),
    stop_reason: stopOf(reply),
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

/** The same reply as Messages API server-sent events. */
export function anthropicEvents(reply: ScriptedReply, request: ScriptedRequest, chunkSize: number): string {
  const events: [string, object][] = [];
  const message = anthropicMessage(reply, request) as { content: Block[] };
  events.push([
    "message_start",
    {
      type: "message_start",
      message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 0 } },
    },
  ]);
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      events.push([
        "content_block_start",
        { type: "content_block_start", index, content_block: { type: "text", text: "" } },
      ]);
      for (const piece of chunks(block.text as string, chunkSize))
        events.push([
          "content_block_delta",
          { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } },
        ]);
    } else {
      events.push([
        "content_block_start",
        { type: "content_block_start", index, content_block: { ...block, input: {} } },
      ]);
      const json = typeof block.input === "string" ? block.input : JSON.stringify(block.input);
      for (const piece of chunks(json, chunkSize * 4))
        events.push([
          "content_block_delta",
          { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } },
        ]);
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push([
    "message_delta",
    {
      type: "message_delta",
      delta: { stop_reason: stopOf(reply), stop_sequence: null },
      usage: { output_tokens: 5 },
    },
  ]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join("");
}

/** The API's error body. */
export function anthropicError(message: string): object {
  return { type: "error", error: { type: "invalid_request_error", message } };
}
