import { chunks, type ScriptedReply, type ScriptedRequest } from "./script.ts";

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

type Message = { role: string; content?: unknown; tool_calls?: any[]; tool_call_id?: string };

/**
 * Checks a Chat Completions request the way the API does for what an agent loop can get
 * wrong: tool definitions and names, string arguments, and every `tool_calls` id answered by
 * a `tool` message before the conversation goes on (and no `tool` message without its call).
 */
export function checkOpenAiRequest(body: any): string | undefined {
  if (typeof body?.model !== "string") return "you must provide a model parameter";
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "'messages' must not be empty";
  const names = new Set<string>();
  for (const [i, tool] of (body.tools ?? []).entries()) {
    if (tool?.type !== "function") return `tools[${i}].type: expected 'function'`;
    if (!NAME.test(tool.function?.name))
      return `Invalid 'tools[${i}].function.name': string does not match pattern '^[a-zA-Z0-9_-]{1,64}$'`;
    if (names.has(tool.function.name)) return `tools: duplicate function name ${tool.function.name}`;
    names.add(tool.function.name);
  }
  const messages = body.messages as Message[];
  let pending = new Set<string>();
  for (const [i, m] of messages.entries()) {
    if (m.role === "tool") {
      if (!pending.has(m.tool_call_id ?? ""))
        return `messages.[${i}]: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'`;
      pending.delete(m.tool_call_id!);
      if (typeof m.content !== "string") return `messages.[${i}].content: expected a string`;
      continue;
    }
    if (pending.size > 0)
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(", ")}`;
    if (m.role === "assistant" && m.tool_calls) {
      for (const c of m.tool_calls)
        if (typeof c.function?.arguments !== "string")
          return `messages.[${i}].tool_calls: arguments must be a string`;
      pending = new Set(m.tool_calls.map((c) => c.id as string));
    }
  }
  if (pending.size > 0)
    return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(", ")}`;
  return undefined;
}

/** The neutral view of a Chat Completions request. */
export function viewOpenAiRequest(body: any, index: number): ScriptedRequest {
  const messages = (body.messages ?? []) as Message[];
  let start = messages.length;
  while (start > 0 && messages[start - 1]!.role === "tool") start--;
  const last = messages.at(-1);
  const system = messages.filter((m) => m.role === "system" || m.role === "developer");
  return {
    api: "openai",
    index,
    stream: body.stream === true,
    model: body.model,
    system: system.length > 0 ? system.map((m) => String(m.content)).join("\n") : undefined,
    tools: (body.tools ?? []).map((t: { function: { name: string } }) => t.function.name),
    body,
    lastUserText: last?.role === "user" ? textOf(last.content) : undefined,
    toolResults: messages.slice(start).map((m) => {
      const content = String(m.content);
      return { id: m.tool_call_id!, content, isError: content.startsWith("Error:") };
    }),
  };
}

/** A user message's text: its string, or its text parts joined by newlines. */
function textOf(content: unknown): string {
  if (!Array.isArray(content)) return String(content);
  return content
    .filter((p: { type?: string }) => p.type === "text")
    .map((p: { text: string }) => p.text)
    .join("\n");
}

function callsOf(reply: ScriptedReply, index: number) {
  return (reply.toolCalls ?? []).map((c, n) => ({
    id: c.id ?? `call_${index}_${n}`,
    type: "function" as const,
    function: {
      name: c.name,
      arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {}),
    },
  }));
}

function finishOf(reply: ScriptedReply): string {
  const stop = reply.stop ?? ((reply.toolCalls ?? []).length > 0 ? "tool_use" : "end_turn");
  return stop === "tool_use" ? "tool_calls" : stop === "max_tokens" ? "length" : "stop";
}

/** A non-streaming Chat Completions response. */
export function openAiCompletion(reply: ScriptedReply, request: ScriptedRequest): object {
  const calls = callsOf(reply, request.index);
  return {
    id: `chatcmpl-${request.index}`,
    object: "chat.completion",
    created: 0,
    model: request.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.text ?? null,
          refusal: null,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        finish_reason: finishOf(reply),
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

/** The same reply as Chat Completions chunks (server-sent events ending in `[DONE]`). */
export function openAiChunks(reply: ScriptedReply, request: ScriptedRequest, chunkSize: number): string {
  const base = {
    id: `chatcmpl-${request.index}`,
    object: "chat.completion.chunk",
    created: 0,
    model: request.model,
  };
  const chunk = (delta: object, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
  });
  const out: object[] = [chunk({ role: "assistant", content: "" })];
  for (const piece of chunks(reply.text ?? "", chunkSize)) out.push(chunk({ content: piece }));
  callsOf(reply, request.index).forEach((c, index) => {
    out.push(
      chunk({
        tool_calls: [
          { index, id: c.id, type: "function", function: { name: c.function.name, arguments: "" } },
        ],
      }),
    );
    for (const piece of chunks(c.function.arguments, chunkSize * 4))
      out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  out.push(chunk({}, finishOf(reply)));
  if (request.body.stream_options?.include_usage)
    out.push({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
  return `${out.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("")}data: [DONE]\n\n`;
}

/** The API's error body. */
export function openAiError(message: string): object {
  return { error: { message, type: "invalid_request_error", param: null, code: null } };
}
