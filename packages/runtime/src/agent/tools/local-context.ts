import type { ToolContext } from "../../context.ts";
import { ToolError } from "../../tool-error.ts";
import type { AgentToolExecution } from "./agent-tool.ts";

const AGENT_INFO = { name: "mcp-gen-agent", version: "0.1.0" };

/**
 * The `ToolContext` of a tool run in-process by the agent: progress and log messages become
 * agent events; there is no client to sample from or elicit with, so those reject with a
 * `ToolError` the model can read.
 */
export function localToolContext(options: {
  toolName: string;
  execution: AgentToolExecution;
  signal: AbortSignal;
}): ToolContext {
  const { toolName, execution, signal } = options;
  return {
    toolName,
    kind: "tool",
    uri: undefined,
    era: undefined,
    protocolVersion: undefined,
    requestId: execution.callId,
    sessionId: undefined,
    auth: undefined,
    client: { info: AGENT_INFO, capabilities: {} },
    signal,
    async progress(progress, total, message) {
      if (signal.aborted) return;
      execution.notify({
        kind: "progress",
        progress,
        ...(total !== undefined ? { total } : {}),
        ...(message !== undefined ? { message } : {}),
      });
    },
    async log(level, data) {
      if (!signal.aborted) execution.notify({ kind: "log", level, data });
    },
    async sample() {
      throw new ToolError(`Tool "${toolName}" needs sampling, which the agent does not provide in-process.`);
    },
    async elicit() {
      throw new ToolError(
        `Tool "${toolName}" needs elicitation, which the agent does not provide in-process.`,
      );
    },
    async roots() {
      throw new ToolError(
        `Tool "${toolName}" needs the client's roots, which the agent does not provide in-process.`,
      );
    },
    closeStream() {},
    elicitationComplete: () => Promise.resolve(),
    // A call in process never becomes an MCP task.
    async becomeTask() {},
    // No client subscribes to resources of tools run in process.
    notifyResourceUpdated() {},
  };
}
