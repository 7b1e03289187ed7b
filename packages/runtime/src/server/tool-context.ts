import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type ClientCapabilities,
  type Implementation,
  type ProtocolEra,
  type Server,
} from "@modelcontextprotocol/server";
import type { ToolContext } from "../context.ts";
import { askThrough } from "./input/channel.ts";
import type { Invocation } from "./invocation.ts";
import { principalOf } from "./principal.ts";

/** What a tool context is made of: the server, the invocation it serves and the call's signal. */
export interface ContextSource {
  server: Server;
  era: ProtocolEra;
  /** The tool's, resource's or prompt's name. */
  toolName: string;
  /** What is served: a tool call (default), a resource read or a prompt. */
  kind?: ToolContext["kind"];
  /** The URI being read (resources). */
  uri?: string;
  /** The running call; on 2026-07-28 it moves from request to request while it waits for input. */
  link: Invocation<unknown>;
  signal: AbortSignal;
  /** Tells the subscribers of a resource it changed (every connection and listener of the server). */
  notifyResourceUpdated(uri: string): void;
}

/**
 * Builds the `ToolContext` of one call. Logging goes out as related to the request the call
 * currently serves (on Streamable HTTP: on its own response stream); nothing is sent once the
 * call's signal is aborted.
 *
 * Questions (`sample`, `elicit`, `roots`), progress and `becomeTask()` go through the channel of
 * the invocation (`input/`), which the era and mode decide: server-to-client requests for a 2025
 * client, `input_required` rounds for a 2026-07-28 client, the task's own ways once it is one.
 */
export function createToolContext(source: ContextSource): ToolContext {
  const { server, era, link, signal } = source;
  const envelope = () => link.request.mcpReq.envelope as Record<string, unknown> | undefined;
  const first = link.request;
  return {
    toolName: source.toolName,
    kind: source.kind ?? "tool",
    uri: source.uri,
    era,
    protocolVersion: server.getNegotiatedProtocolVersion?.() ?? undefined,
    requestId: first.mcpReq.id,
    sessionId: first.sessionId,
    auth: principalOf(first.http?.authInfo),
    client: {
      get info() {
        return era === "modern"
          ? (envelope()?.[CLIENT_INFO_META_KEY] as Implementation | undefined)
          : server.getClientVersion();
      },
      get capabilities() {
        return era === "modern"
          ? (envelope()?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
          : server.getClientCapabilities();
      },
    },
    signal,
    ...askThrough(() => link.channel),
    async log(level, data, logger) {
      const request = link.request;
      if (signal.aborted || request.mcpReq.signal.aborted) return;
      // The SDK drops what is below the client's level: the level `logging/setLevel` set on a
      // 2025 connection, the request's `io.modelcontextprotocol/logLevel` on 2026-07-28
      // (where a request without one receives no log messages at all).
      await request.mcpReq.log(level, data, logger);
    },
    async elicitationComplete(elicitationId) {
      const elicitation = server.getClientCapabilities()?.elicitation as { url?: object } | undefined;
      if (era !== "legacy" || !elicitation?.url) return;
      // not tied to the call's request: the user may finish after the call has ended
      await server.notification({ method: "notifications/elicitation/complete", params: { elicitationId } });
    },
    becomeTask: () => link.channel.becomeTask(),
    closeStream() {
      link.request.http?.closeSSE?.();
    },
    notifyResourceUpdated(uri) {
      source.notifyResourceUpdated(uri);
    },
  };
}
