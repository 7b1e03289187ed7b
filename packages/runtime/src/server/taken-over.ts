import type { CallToolResult } from "@modelcontextprotocol/server";
import { ToolError } from "../tool-error.ts";
import type { CallEnvironment, Target } from "./call-tool.ts";
import type { ArgumentLimits } from "./guard.ts";
import { askThrough, type InputChannel } from "./input/channel.ts";
import type { McpGenServerEvent } from "./options.ts";

/**
 * What a replica needs to run again a task it took over from a dead replica: the tools it
 * serves now and how it serves calls (`Tasks.adopt`).
 */
export interface TakeoverSource {
  targets: ReadonlyMap<string, Target<CallToolResult>>;
  limits: ArgumentLimits;
  maskErrors: boolean;
  report(event: McpGenServerEvent): void;
  /** Tells this replica's subscribers (and, with shared state, every replica's) that a resource changed. */
  notifyResourceUpdated(uri: string): void;
}

/**
 * The environment of a run taken over: no request serves it (its client polls the task), so
 * questions go through `channel` (the store, for a 2026-07-28 task) and nothing is logged to
 * the client.
 */
export function takenOverEnvironment(options: {
  source: TakeoverSource;
  taskId: string;
  era: "modern" | "legacy";
  owner: string | undefined;
  signal: AbortSignal;
  channel: InputChannel;
}): CallEnvironment {
  const { source, era } = options;
  return {
    era,
    limits: source.limits,
    maskErrors: source.maskErrors,
    timeoutMs: undefined,
    requestSignal: options.signal,
    report: source.report,
    channel: () => options.channel,
    context: (signal, invocation) => ({
      toolName: invocation.target.key.replace(/^tool:/, ""),
      kind: "tool",
      uri: undefined,
      era,
      protocolVersion: undefined,
      // No request runs it any more: the task's id stands for the call.
      requestId: options.taskId,
      sessionId: options.owner,
      auth: undefined,
      client: { info: undefined, capabilities: undefined },
      signal,
      ...askThrough(() => options.channel),
      // Log messages travel on a request's stream; a taken-over run has none.
      log: () => Promise.resolve(),
      elicitationComplete: () => Promise.resolve(),
      becomeTask: () => Promise.resolve(),
      closeStream: () => {},
      notifyResourceUpdated: (uri) => source.notifyResourceUpdated(uri),
    }),
  };
}

/**
 * The channel of a 2025 task taken over: its questions went on the stream of a `tasks/result`
 * of the session's replica, which died with it.
 */
export function noStreamChannel(label: string): InputChannel {
  return {
    ask: () =>
      Promise.reject(
        new ToolError(
          `${label} cannot ask its client: the replica that held its 2025 session stopped and this task was taken over.`,
        ),
      ),
    progress: () => Promise.resolve(),
    becomeTask: () => Promise.resolve(),
  };
}
