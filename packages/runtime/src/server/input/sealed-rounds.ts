import { ProtocolErrorCode, type ServerContext } from "@modelcontextprotocol/server";
import type { ContinuationCodec } from "../../state/continuation-codec.ts";
import { principalOf } from "../principal.ts";
import { protocolError } from "../protocol.ts";

/**
 * What a sealed 2026-07-28 `requestState` carries for a tool that may run again before its
 * question (`@readOnly` / `@idempotent`): what runs, its arguments, and every answer so far.
 * Signed, not encrypted: the client can read the answers it gave, nothing else goes in.
 */
export interface SealedRound {
  /** The target's key (`tool:name`). */
  target: string;
  /** Its raw arguments as canonical JSON. */
  args: string;
  /** The client's answers by key, all rounds so far. */
  answers: Record<string, unknown>;
}

/** How `input_required` rounds travel between replicas (`McpGenServerOptions.sharedContinuations`). */
export interface SharedContinuations {
  /** Seals and opens round states, once each across replicas; absent when no key is configured. */
  codec?: ContinuationCodec<SealedRound>;
}

/** Binds a sealed round to its caller: the token's subject and client, or nobody without auth. */
export function bindCaller(ctx: ServerContext): string {
  const principal = principalOf(ctx.http?.authInfo);
  return JSON.stringify([principal?.subject ?? null, principal?.clientId ?? null]);
}

/**
 * The refusal of a `requestState` this replica cannot continue: unknown, expired, used, or the
 * parked call of another replica — what to do about it is in the message.
 */
export function invalidRequestState(options: {
  targetKey: string;
  shared: SharedContinuations | undefined;
  rerunnable: boolean;
}): Error {
  const again = options.targetKey.startsWith("tool:") ? "call the tool" : "send the request";
  let message = `Invalid or expired requestState: ${again} again without it`;
  if (options.shared) {
    const what = options.targetKey.replace(/^[a-z]+:/, "");
    message += options.rerunnable
      ? options.shared.codec
        ? ""
        : `. Replicas continue ${JSON.stringify(what)} on any replica only with a shared key (MCP_GEN_STATE_KEY); without it, retry through the replica that answered input_required`
      : `. ${JSON.stringify(what)} is not declared safe to run again (@readOnly or @idempotent), so its call waits on the replica that asked: send the retry through that replica (route by Mcp-Name), or make the tool a @task`;
  }
  return protocolError(ProtocolErrorCode.InvalidParams, message, { reason: "invalid_request_state" });
}
