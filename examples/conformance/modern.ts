/**
 * The fixture tools of the 2026-07-28 server scenarios of `@modelcontextprotocol/conformance`
 * (`--requirements 2026-07-28`, CI: `.ci/conformance-2026`): multi-round `input_required` calls
 * (SEP-2322), the diagnostics of the stateless protocol (SEP-2575) and an argument mirrored into
 * an HTTP header (SEP-2243). They are plain functions like the others: `ctx.elicit()` and
 * `ctx.sample()` answer a 2026-07-28 client with `input_required` and resume when it calls again
 * with the answers, and ask a 2025 client with a server-to-client request.
 */
import { type Header, type ToolContext, type ToolResult, text } from "@mcp-gen/runtime";

/** What the user typed into a one-field form, or why there is nothing. */
function answer(reply: { action: string; content?: Record<string, unknown> }, field: string): string {
  return reply.action === "accept" ? String(reply.content?.[field] ?? "") : `(${reply.action})`;
}

/** Asks the user for their name (elicitation, under the key `user_name`), then greets them. */
export async function test_input_required_result_elicitation(ctx: ToolContext): Promise<ToolResult> {
  const reply = await ctx.elicit(
    {
      message: "What is your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
    { key: "user_name" },
  );
  return text(`Hello, ${answer(reply, "name")}!`);
}

/** Asks the client's model for the capital of France (sampling) and returns its answer. */
export async function test_input_required_result_sampling(ctx: ToolContext): Promise<ToolResult> {
  const reply = await ctx.sample(
    {
      messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
      maxTokens: 100,
    },
    { key: "capital_question" },
  );
  return text(
    `LLM response: ${reply.content.type === "text" ? reply.content.text : `(${reply.content.type})`}`,
  );
}

/**
 * Asks the user to confirm; the call resumes only with the `requestState` the server issued
 * (the state names this very execution), so reaching the end proves it was round-tripped.
 */
export async function test_input_required_result_request_state(ctx: ToolContext): Promise<ToolResult> {
  const reply = await ctx.elicit({
    message: "Please confirm",
    requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
  });
  return text(`state-ok: confirmed=${answer(reply, "ok")}`);
}

/** Asks two questions one after the other: two `input_required` rounds, each with its own state. */
export async function test_input_required_result_multi_round(ctx: ToolContext): Promise<ToolResult> {
  const name = await ctx.elicit({
    message: "Step 1: What is your name?",
    requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
  });
  const color = await ctx.elicit({
    message: "Step 2: What is your favorite color?",
    requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
  });
  return text(`Hello, ${answer(name, "name")}! Favorite color: ${answer(color, "color")}.`);
}

/**
 * Asks the user to confirm. A retry whose `requestState` was altered names no waiting call and
 * is rejected with a JSON-RPC error (-32602) before anything runs.
 */
export async function test_input_required_result_tampered_state(ctx: ToolContext): Promise<ToolResult> {
  const reply = await ctx.elicit({
    message: "Please confirm",
    requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
  });
  return text(`confirmed=${answer(reply, "ok")}`);
}

/**
 * Asks only what the client declared it supports: a form if it can elicit, a completion if it
 * can sample (both in one round when it can do both).
 */
export async function test_input_required_result_capabilities(ctx: ToolContext): Promise<ToolResult> {
  const can = ctx.client.capabilities;
  const [form, completion] = await Promise.all([
    can?.elicitation
      ? ctx.elicit({
          message: "Elicitation input",
          requestedSchema: { type: "object", properties: { value: { type: "string" } }, required: ["value"] },
        })
      : undefined,
    can?.sampling
      ? ctx.sample({
          messages: [{ role: "user", content: { type: "text", text: "Sample request" } }],
          maxTokens: 50,
        })
      : undefined,
  ]);
  const received = [form && "elicitation", completion && "sampling"].filter(Boolean);
  return text(
    received.length > 0
      ? `capabilities-ok: received ${received.join(",")}`
      : "No supported capabilities declared",
  );
}

/** Needs sampling: a client that does not declare it must not get this tool's result. */
export async function test_missing_capability(ctx: ToolContext): Promise<ToolResult> {
  await ctx.sample({
    messages: [{ role: "user", content: { type: "text", text: "Say hello" } }],
    maxTokens: 10,
  });
  return text("Success");
}

/** Asks the user a question: the answer travels as `input_required`, never as a request on the stream. */
export async function test_streaming_elicitation(ctx: ToolContext): Promise<ToolResult> {
  const reply = await ctx.elicit({
    message: "Streaming elicitation",
    requestedSchema: { type: "object", properties: { value: { type: "string" } } },
  });
  return text(`Streaming complete: action=${reply.action}`);
}

/** Logs while it runs: a request that sets no log level receives no log messages. */
export async function test_logging_tool(ctx: ToolContext): Promise<ToolResult> {
  await ctx.log("info", "Diagnostic trace logging activated");
  return text("Logging evaluated");
}

/**
 * Echoes a region that 2026-07-28 clients calling over HTTP also send as the header
 * `Mcp-Param-Region` (SEP-2243): the server rejects a call whose header disagrees with it.
 * @param region Where to run; mirrored into the `Mcp-Param-Region` header
 */
export function test_header_region(region: string & Header<"Region">): ToolResult {
  return text(`region=${region}`);
}

/** Asks for the client's roots (`roots/list`) and names them. */
export async function test_input_required_result_list_roots(ctx: ToolContext): Promise<ToolResult> {
  const roots = await ctx.roots({ key: "client_roots" });
  return text(`Roots: ${roots.map((r) => r.uri).join(", ") || "(none)"}`);
}

/** Asks for a form, a completion and the client's roots in one round. */
export async function test_input_required_result_multiple_inputs(ctx: ToolContext): Promise<ToolResult> {
  const [form, completion, roots] = await Promise.all([
    ctx.elicit({
      message: "What is your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    }),
    ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "Say hello" } }], maxTokens: 20 }),
    ctx.roots(),
  ]);
  const said = completion.content.type === "text" ? completion.content.text : completion.content.type;
  return text(`name=${answer(form, "name")}; sampled=${said}; roots=${roots.length}`);
}
