import type { Server, ServerContext } from "@modelcontextprotocol/server";
import {
  type InputChannel,
  type InputRequest,
  isUrl,
  missingCapability,
  type ProgressUpdate,
  progressNotification,
  supports,
} from "./channel.ts";

/** What a channel bound to requests needs of its call: the request it serves now, its signal, its name. */
export interface RequestLink {
  /** The request the call serves now (on 2026-07-28 it moves to each retry). */
  readonly request: ServerContext;
  readonly signal: AbortSignal;
  /** How messages name it: `Tool "add"`. */
  readonly label: string;
}

/**
 * `notifications/progress` on the progress token of the request the call serves now, as related
 * to it (on Streamable HTTP: on its own response stream); nothing once the call or the request is
 * aborted, nothing without a token.
 */
export function requestProgress(link: RequestLink): (update: ProgressUpdate) => Promise<void> {
  return async (update) => {
    const request = link.request;
    const token = request.mcpReq._meta?.progressToken;
    if (token === undefined || link.signal.aborted || request.mcpReq.signal.aborted) return;
    await request.mcpReq.notify(progressNotification(token, update));
  };
}

/**
 * The 2025 channel of a call: server-to-client requests on the client's live connection, sent as
 * related to the call (on Streamable HTTP: on its stream). A client without the capability gets
 * a `ToolError` the tool may catch. A 2025 client asks for a task up front (`task` in
 * `tools/call`): `becomeTask()` has nothing to turn.
 */
export function legacyRequestChannel(server: Server, link: RequestLink): InputChannel {
  return {
    ask(request, _key) {
      if (!supports(server.getClientCapabilities(), request)) {
        return Promise.reject(missingCapability({ request, label: link.label, strict: false }));
      }
      const related = { relatedRequestId: link.request.mcpReq.id, signal: link.signal };
      return send(server, link.request, request, related);
    },
    progress: requestProgress(link),
    becomeTask: () => Promise.resolve(),
  };
}

/** Sends one request to a 2025 client through the SDK (`options` relate it to a request, and carry its signal). */
export async function send(
  server: Server,
  ctx: ServerContext,
  request: InputRequest,
  options: { relatedRequestId: string | number; signal: AbortSignal },
): Promise<unknown> {
  switch (request.method) {
    case "elicitation/create": {
      // a 2025 URL-mode elicitation carries an id (a completion notification would name it)
      const params =
        isUrl(request.params) && typeof request.params.elicitationId !== "string"
          ? { ...request.params, elicitationId: crypto.randomUUID() }
          : request.params;
      return ctx.mcpReq.elicitInput(params as never, options);
    }
    case "sampling/createMessage":
      return ctx.mcpReq.requestSampling(request.params as never, options);
    case "roots/list":
      return server.listRoots(
        Object.keys(request.params).length > 0 ? (request.params as never) : undefined,
        options,
      );
  }
}
