/**
 * The tool context: a parameter of this type gives a tool access to the request it
 * serves. It is never part of the input schema; the server passes it positionally.
 *
 * @example
 * import type { ToolContext } from "@mcp-gen/runtime";
 * export async function slow_job(steps: Int, ctx: ToolContext): Promise<string> {
 *   for (let i = 0; i < steps; i++) {
 *     ctx.signal.throwIfAborted();
 *     await ctx.progress(i + 1, steps);
 *   }
 *   return "done";
 * }
 */
export interface ToolContext {
  /** Name of the tool being called. */
  readonly toolName: string;
  /** Aborted when the client cancels the request or the tool's timeout elapses. */
  readonly signal: AbortSignal;
  /** Reports progress; a no-op when the caller did not ask for progress. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends a log message to the client (`notifications/message`), honouring its log level. */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
}

export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
