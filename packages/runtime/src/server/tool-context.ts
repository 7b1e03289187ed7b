import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { LogLevel, ToolContext } from "../context.ts";
import { ToolError } from "../tool-error.ts";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a tool context is made of: the server, the request it serves and the call's signal. */
export interface ContextSource {
  server: Server;
  toolName: string;
  extra: Extra;
  signal: AbortSignal;
  /** Whether a log message of this level passes the level the client set. */
  allows(level: LogLevel): boolean;
}

/**
 * Builds the `ToolContext` of one call. Notifications go out as related to the request (on
 * Streamable HTTP: on its own response stream); nothing is sent once the call's signal is
 * aborted.
 */
export function createToolContext(source: ContextSource): ToolContext {
  const { server, extra, signal } = source;
  const token = extra._meta?.progressToken;
  const related = { relatedRequestId: extra.requestId, signal };
  return {
    toolName: source.toolName,
    requestId: extra.requestId,
    sessionId: extra.sessionId,
    client: {
      get info() {
        return server.getClientVersion();
      },
      get capabilities() {
        return server.getClientCapabilities();
      },
    },
    signal,
    async progress(progress, total, message) {
      if (token === undefined || signal.aborted) return;
      await extra.sendNotification({
        method: "notifications/progress",
        params: {
          progressToken: token,
          progress,
          ...(total !== undefined ? { total } : {}),
          ...(message !== undefined ? { message } : {}),
        },
      });
    },
    async log(level, data, logger) {
      if (signal.aborted || !source.allows(level)) return;
      await extra.sendNotification({
        method: "notifications/message",
        params: { level, data, ...(logger !== undefined ? { logger } : {}) },
      });
    },
    async sample(request) {
      if (!server.getClientCapabilities()?.sampling) {
        throw new ToolError(`Tool "${source.toolName}" needs sampling, which the client does not support.`);
      }
      return server.createMessage(request, related);
    },
    async elicit(request) {
      if (!server.getClientCapabilities()?.elicitation) {
        throw new ToolError(
          `Tool "${source.toolName}" needs elicitation, which the client does not support.`,
        );
      }
      return server.elicitInput({ ...request, mode: "form" }, related);
    },
    closeStream() {
      extra.closeSSEStream?.();
    },
  };
}
