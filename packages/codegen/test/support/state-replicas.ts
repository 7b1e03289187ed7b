/**
 * The tools of the shared-state replica tests (`serve-state-takeover.test.ts`; their harness is
 * packages/runtime/test/state/replicas.ts): tasks that count their runs in a file outside every
 * process, a resource and a tool that updates it, and tools that ask their client (one declared
 * safe to run again, one not).
 */
export const TOOLS = `
import { appendFileSync, readFileSync } from "node:fs";
import type { ToolContext } from "@mcp-gen/runtime";

/** Resolves never; rejects when the run is aborted. */
function forever(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
}

/** Counts its runs in \`file\`; the first waits until stopped, any later one completes. */
function counted(file: string): number {
  appendFileSync(file, \`\${process.pid}\\n\`);
  return readFileSync(file, "utf8").split("\\n").filter(Boolean).length;
}

/**
 * Safe to run again: the first run waits, a run after a takeover completes.
 * @task
 * @idempotent
 * @param file Where runs are counted
 */
export async function recount(file: string, ctx: ToolContext): Promise<string> {
  const runs = counted(file);
  if (runs === 1) await forever(ctx.signal);
  return \`runs=\${runs}\`;
}

/**
 * Not safe to run again: does its side effect once, then waits until stopped.
 * @task
 * @destructive
 * @param file Where the side effect is counted
 */
export async function launch(file: string, ctx: ToolContext): Promise<string> {
  counted(file);
  return forever(ctx.signal);
}

/**
 * Asks a name, then counts its runs; the first run waits after the answer, a run after a takeover
 * completes with the answer the client gave the first.
 * @task
 * @idempotent
 * @param file Where runs are counted
 */
export async function ask_then_hold(file: string, ctx: ToolContext): Promise<string> {
  const reply = await ctx.elicit(
    { message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
    { key: "name" },
  );
  const runs = counted(file);
  if (runs === 1) await forever(ctx.signal);
  return \`\${String(reply.content?.name)} runs=\${runs}\`;
}

/**
 * Notes in \`file\` when it starts and when it is stopped (a cancel), then waits.
 * @task
 * @param file Where it notes
 */
export async function watched(file: string, ctx: ToolContext): Promise<string> {
  appendFileSync(file, "started\\n");
  try {
    return await forever(ctx.signal);
  } finally {
    appendFileSync(file, "stopped\\n");
  }
}

/**
 * The board clients watch.
 * @resource jobs://board
 */
export function board(): string {
  return "the board";
}

/**
 * Tells every listener that a resource changed.
 * @param uri The resource
 */
export function touch(uri: string, ctx: ToolContext): string {
  ctx.notifyResourceUpdated(uri);
  return \`touched \${uri}\`;
}

/**
 * Greets the user by the name they give; safe to run again.
 * @readOnly
 */
export async function greet_user(ctx: ToolContext): Promise<string> {
  const reply = await ctx.elicit(
    { message: "Your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
    { key: "user_name" },
  );
  return \`Hello, \${String(reply.content?.name)}!\`;
}

/**
 * Asks before it writes; not declared safe to run again.
 * @param file Where it writes
 */
export async function confirm_write(file: string, ctx: ToolContext): Promise<string> {
  const reply = await ctx.elicit(
    { message: "Write?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } },
    { key: "ok" },
  );
  if (reply.action === "accept") appendFileSync(file, "written\\n");
  return reply.action;
}
`;
