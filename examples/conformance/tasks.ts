/**
 * The fixture tools of the tasks scenarios (`tasks-*`) of `@modelcontextprotocol/conformance`
 * 0.2 (the 2026-07-28 `io.modelcontextprotocol/tasks` extension, SEP-2663). A `@task` tool runs
 * as a task when the client supports tasks: the `tools/call` answers with the task, and the
 * client follows it with `tasks/get` (questions through `tasks/update`, `tasks/cancel`). A
 * `@task deferred` tool starts as a plain call and becomes a task at `ctx.becomeTask()`.
 */
import { type ToolContext, ToolError, type ToolResult, text } from "@mcp-gen/runtime";
import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";

/** Waits `ms` milliseconds, or until the call is cancelled. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/** What the user typed into a one-field form, or why there is nothing. */
function answer(reply: { action: string; content?: Record<string, unknown> }, field: string): string {
  return reply.action === "accept" ? String(reply.content?.[field] ?? "") : `(${reply.action})`;
}

/**
 * Greets someone at once; never a task.
 * @param name Who to greet
 */
export function greet(name: string): ToolResult {
  return text(`Hello, ${name}!`);
}

/**
 * Computes for `seconds` seconds, then answers; runs as a task when the client supports tasks.
 * @task
 * @param seconds How long to compute (0: at once)
 * @param label What the computation is called in the answer
 */
export async function slow_compute(seconds: number, ctx: ToolContext, label?: string): Promise<ToolResult> {
  await sleep(seconds * 1000, ctx.signal);
  return text(`Computed ${label ?? "it"} for ${seconds} seconds`);
}

/**
 * Asks the user to confirm the deletion of a file, then reports what they chose; runs as a task.
 * @task
 * @param filename The file to delete
 */
export async function confirm_delete(ctx: ToolContext, filename?: string): Promise<ToolResult> {
  const reply = await ctx.elicit({
    message: `Delete ${filename ?? "the file"}?`,
    requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] },
  });
  return text(`confirmed=${answer(reply, "confirm")}`);
}

/**
 * Asks two questions at once (two pending input requests); runs as a task.
 * @task
 */
export async function multi_input(ctx: ToolContext): Promise<ToolResult> {
  const form = { type: "object" as const, properties: { name: { type: "string" as const } } };
  const [first, second] = await Promise.all([
    ctx.elicit({ message: "First name?", requestedSchema: form }),
    ctx.elicit({ message: "Second name?", requestedSchema: form }),
  ]);
  return text(`first=${answer(first, "name")} second=${answer(second, "name")}`);
}

/**
 * Fails after a second with a tool error (the task completes with `isError`); only runs as a task.
 * @task required
 */
export async function failing_job(ctx: ToolContext): Promise<ToolResult> {
  await sleep(1000, ctx.signal);
  throw new ToolError("The job failed");
}

/**
 * Fails with a JSON-RPC error (the task fails); runs as a task.
 * @task
 */
export async function protocol_error_job(): Promise<ToolResult> {
  throw new ProtocolError(ProtocolErrorCode.InternalError, "The job crashed");
}

/**
 * Asks the user's name (key `user_name`) as a plain call, then becomes a task that greets them;
 * only runs as a task.
 * @task required deferred
 */
export async function test_tool_with_task(ctx: ToolContext): Promise<ToolResult> {
  const reply = await ctx.elicit(
    {
      message: "What is your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
    { key: "user_name" },
  );
  await ctx.becomeTask();
  return text(`Hello, ${answer(reply, "name")}!`);
}
