import type { ProtocolEra } from "@modelcontextprotocol/server";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type ClientCapabilities,
  type Implementation,
  MissingRequiredClientCapabilityError,
  type Root,
  type Server,
} from "@modelcontextprotocol/server";
import type { ToolContext } from "../context.ts";
import { ToolError } from "../tool-error.ts";
import type { Invocation } from "./call-tool.ts";
import type { ParkedCalls } from "./parked.ts";
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
  /** Where a 2026-07-28 call asks the client for input (`input_required`). */
  parked: ParkedCalls;
  /** Tells the subscribers of a resource it changed (every connection and listener of the server). */
  notifyResourceUpdated(uri: string): void;
}

/**
 * Builds the `ToolContext` of one call. Notifications go out as related to the request the
 * call currently serves (on Streamable HTTP: on its own response stream); nothing is sent
 * once the call's signal is aborted.
 *
 * The era decides how the tool reaches the client: a 2025 client gets server-to-client
 * requests (`elicitation/create`, `sampling/createMessage`) on its live connection; a
 * 2026-07-28 client gets an `input_required` result and calls again with the answers, while
 * the same execution of the tool waits (`parked.ts`).
 */
export function createToolContext(source: ContextSource): ToolContext {
  const { server, era, link, signal } = source;
  const envelope = () => link.request.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = (): ClientCapabilities | undefined =>
    era === "modern"
      ? (envelope()?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined)
      : server.getClientCapabilities();
  /**
   * A 2026-07-28 request states what its client supports: without the capability the call fails
   * with `-32021` (the SDK answers HTTP 400), as the spec requires. A 2025 client gets a
   * `ToolError` the tool may catch.
   */
  const need = (capability: "sampling" | "elicitation" | "roots") => {
    if (capabilities()?.[capability]) return;
    if (era === "modern") {
      throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { [capability]: {} } });
    }
    throw new ToolError(`${link.target.label} needs ${capability}, which the client does not support.`);
  };
  const first = link.request;
  // A 2025 server-to-client request travels as related to the call (on Streamable HTTP: on its stream).
  const related = () => ({ relatedRequestId: link.request.mcpReq.id, signal });
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
        return capabilities();
      },
    },
    signal,
    async progress(progress, total, message) {
      const request = link.request;
      const token = request.mcpReq._meta?.progressToken;
      if (token === undefined || signal.aborted || request.mcpReq.signal.aborted) return;
      await request.mcpReq.notify({
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
      const request = link.request;
      if (signal.aborted || request.mcpReq.signal.aborted) return;
      // The SDK drops what is below the client's level: the level `logging/setLevel` set on a
      // 2025 connection, the request's `io.modelcontextprotocol/logLevel` on 2026-07-28
      // (where a request without one receives no log messages at all).
      await request.mcpReq.log(level, data, logger);
    },
    async sample(request, options) {
      need("sampling");
      if (era === "modern") {
        const params = { ...request };
        return source.parked.ask(link, { method: "sampling/createMessage", params }, options?.key) as never;
      }
      return link.request.mcpReq.requestSampling(request, related()) as never;
    },
    async elicit(request, options) {
      need("elicitation");
      const params = { ...request, mode: "form" as const };
      if (era === "modern") {
        return source.parked.ask(link, { method: "elicitation/create", params }, options?.key) as never;
      }
      return link.request.mcpReq.elicitInput(params, related());
    },
    async roots(options) {
      need("roots");
      if (era === "modern") {
        const answer = await source.parked.ask(link, { method: "roots/list", params: {} }, options?.key);
        return (answer as { roots: Root[] }).roots;
      }
      return (await server.listRoots(undefined, related())).roots;
    },
    async becomeTask() {
      // A 2025 client asks for a task up front (`task` in `tools/call`): nothing to turn.
      if (era === "modern") await source.parked.becomeTask(link);
    },
    closeStream() {
      link.request.http?.closeSSE?.();
    },
    notifyResourceUpdated(uri) {
      source.notifyResourceUpdated(uri);
    },
  };
}
