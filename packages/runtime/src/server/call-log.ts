import type { ProtocolEra, Result, ServerContext } from "@modelcontextprotocol/server";

/** How a call ended, as the call log tells it. */
export type CallOutcome =
  | "ok"
  | "tool-error"
  | "invalid-arguments"
  | "protocol-error"
  | "cancelled"
  | "timeout";

/** One served call: a `tools/call`, `resources/read` or `prompts/get`. */
export interface CallRecord {
  /** When the call began (ISO 8601). */
  time: string;
  kind: "tool" | "resource" | "prompt";
  /** The tool's or prompt's name, the resource's URI. */
  name: string;
  durationMs: number;
  outcome: CallOutcome;
  /** `"2026-07-28"` or `"2025"` (the protocol era of the client). */
  era: "2026-07-28" | "2025";
  /** The token's subject (`ctx.auth.subject`) when the caller was authorized. */
  principal?: string;
  /** The 2025-era session id, when there is one. */
  session?: string;
  /** The JSON-RPC request id. */
  requestId: string | number;
  /** The arguments: only with `logArguments`. */
  arguments?: unknown;
}

/** What a call found out about its own end before the result says it (set by `callTool`). */
export interface OutcomeNote {
  outcome?: Exclude<CallOutcome, "ok" | "protocol-error">;
}

/** The outcome of a served call from its result (or thrown error) and what the call noted. */
export function outcomeOf(
  settled: { ok: true; value: Result } | { ok: false },
  note: OutcomeNote,
): CallOutcome {
  if (!settled.ok) return "protocol-error";
  if (note.outcome) return note.outcome;
  return (settled.value as { isError?: unknown }).isError === true ? "tool-error" : "ok";
}

/** The fields of a record a request gives: era, principal, session, request id. */
export function requestFields(
  ctx: ServerContext,
  era: ProtocolEra,
): Pick<CallRecord, "era" | "principal" | "session" | "requestId"> {
  const claims = (ctx.http?.authInfo?.extra?.claims ?? {}) as { sub?: unknown };
  return {
    era: era === "modern" ? "2026-07-28" : "2025",
    ...(typeof claims.sub === "string" ? { principal: claims.sub } : {}),
    ...(ctx.sessionId ? { session: ctx.sessionId } : {}),
    requestId: ctx.mcpReq.id,
  };
}

/**
 * A call log writing one JSON line per call (`mcp-gen serve --log-format json`), to stderr by
 * default: stdout belongs to the stdio transport.
 *
 * @example
 * await serve(manifest, { onCall: jsonCallLog() });
 * // {"time":"2026-07-28T10:00:00.000Z","kind":"tool","name":"add","durationMs":1.2,"outcome":"ok","era":"2025",…}
 */
export function jsonCallLog(
  stream: { write(line: string): unknown } = process.stderr,
): (record: CallRecord) => void {
  return (record) => void stream.write(`${JSON.stringify(record)}\n`);
}
