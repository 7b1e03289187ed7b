import { context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { CallOutcome, CallRecord } from "./call-log.ts";

/**
 * OpenTelemetry spans of served tool calls, through `@opentelemetry/api`: a no-op unless the
 * application registers an SDK (a tracer provider). Names and attributes follow the OTel semantic
 * conventions for MCP (open-telemetry/semantic-conventions-genai, docs/gen-ai/mcp.md; Development
 * status): span `tools/call <tool>` of kind SERVER with `mcp.method.name`, `gen_ai.tool.name`,
 * `gen_ai.operation.name` `execute_tool`, `mcp.session.id`, `jsonrpc.request.id`,
 * `mcp.protocol.version` (2026-07-28 only: a 2025 session's exact version is not at hand here),
 * and on failure status ERROR with `error.type`.
 */
const tracer = trace.getTracer("@mcp-gen/runtime");

/** Runs a `tools/call` inside its span (the tool's own spans become its children). */
export function traceToolCall<T>(
  tool: string,
  fields: Pick<CallRecord, "era" | "session" | "requestId">,
  run: (span: Span) => Promise<T>,
): Promise<T> {
  const span = tracer.startSpan(`tools/call ${tool}`, {
    kind: SpanKind.SERVER,
    attributes: {
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": tool,
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": String(fields.requestId),
      ...(fields.session ? { "mcp.session.id": fields.session } : {}),
      ...(fields.era === "2026-07-28" ? { "mcp.protocol.version": "2026-07-28" } : {}),
    },
  });
  return context.with(trace.setSpan(context.active(), span), () => run(span));
}

/** Ends a tool call's span with its outcome: ERROR status and `error.type` unless it went well. */
export function endToolSpan(span: Span, outcome: CallOutcome, error?: unknown): void {
  if (outcome !== "ok") {
    // `tool_error` is the conventions' value for an `isError` result; the others are mcp-gen's outcomes.
    const type =
      outcome === "tool-error"
        ? "tool_error"
        : outcome === "protocol-error"
          ? protocolErrorType(error)
          : outcome.replaceAll("-", "_");
    span.setAttribute("error.type", type);
    span.setStatus({
      code: SpanStatusCode.ERROR,
      ...(error instanceof Error ? { message: error.message } : {}),
    });
  }
  span.end();
}

/** The JSON-RPC error code of a protocol error (as the conventions ask), else the error's name. */
function protocolErrorType(error: unknown): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === "number") return String(code);
  return error instanceof Error ? error.name : "_OTHER";
}
