import { MissingRequiredClientCapabilityError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { ToolError } from "../tool-error.ts";
import type { CallEnvironment } from "./call-tool.ts";
import { TimeoutError } from "./invocation.ts";
import type { McpGenServerEvent } from "./options.ts";
import { protocolError } from "./protocol.ts";

/**
 * What a resource or prompt implementation threw, as the JSON-RPC error the client receives
 * (those results have no `isError`): `-32603` with a `ToolError`'s message, or with the error's
 * message — a generic one with `maskErrors`, the details going to `onError` either way. A
 * 2026-07-28 client lacking a capability the implementation asked for gets `-32021` as is.
 */
export function handlerFailure(
  target: { label: string; name: string; source: "resource" | "prompt" | "completion" },
  error: unknown,
  env: Pick<CallEnvironment, "maskErrors" | "report">,
): Error {
  if (error instanceof MissingRequiredClientCapabilityError) return error;
  if (error instanceof TimeoutError || error instanceof ToolError) {
    return protocolError(ProtocolErrorCode.InternalError, error.message);
  }
  const event: McpGenServerEvent = {
    kind: "tool-error",
    tool: target.name,
    source: target.source,
    error,
    masked: env.maskErrors,
  };
  env.report(event);
  if (env.maskErrors) {
    return protocolError(ProtocolErrorCode.InternalError, `${target.label} failed with an internal error.`);
  }
  const message = error instanceof Error ? error.message : String(error);
  return protocolError(ProtocolErrorCode.InternalError, message || `${target.label} failed.`);
}

/** A result that breaks what the protocol allows: logged as a server bug, `-32603` for the client. */
export function invalidResult(
  target: { label: string; name: string; source: "resource" | "prompt" | "completion" },
  problem: { message: string; value: unknown },
  env: Pick<CallEnvironment, "report">,
): Error {
  env.report({
    kind: "invalid-result",
    tool: target.name,
    source: target.source,
    message: problem.message,
    value: problem.value,
  });
  return protocolError(
    ProtocolErrorCode.InternalError,
    `${target.label} produced an invalid result (a server bug; it was logged).`,
  );
}
