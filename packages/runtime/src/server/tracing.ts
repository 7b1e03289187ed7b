import type { Span, Tracer } from "@opentelemetry/api";
import type { CallOutcome, CallRecord } from "./call-log.ts";

type OtelApi = typeof import("@opentelemetry/api");

/**
 * OpenTelemetry spans of served tool calls, through `@opentelemetry/api`: a no-op unless the
 * application registers an SDK (a tracer provider). Names and attributes follow the OTel semantic
 * conventions for MCP (open-telemetry/semantic-conventions-genai, docs/gen-ai/mcp.md; Development
 * status): span `tools/call <tool>` of kind SERVER with `mcp.method.name`, `gen_ai.tool.name`,
 * `gen_ai.operation.name` `execute_tool`, `mcp.session.id`, `jsonrpc.request.id`,
 * `mcp.protocol.version` (2026-07-28 only: a 2025 session's exact version is not at hand here),
 * and on failure status ERROR with `error.type`.
 *
 * `@opentelemetry/api` (CommonJS, about 40 ms to load) is imported only once the application has
 * registered something with it: until then a call has no span and costs nothing.
 */
let loading: Promise<OtelApi> | undefined;
let loaded: { api: OtelApi; tracer: Tracer } | undefined;

/**
 * Whether an OpenTelemetry tracer provider or context manager is registered: the API keeps them in
 * one global object per major version (`Symbol.for("opentelemetry.js.api.1")`), which this reads
 * without loading the API.
 */
function otelRegistered(): boolean {
  const registry = (globalThis as Record<symbol, Record<string, unknown> | undefined>)[OTEL_GLOBAL];
  return registry?.trace !== undefined || registry?.context !== undefined;
}
const OTEL_GLOBAL = Symbol.for("opentelemetry.js.api.1");

/**
 * Runs a `tools/call` inside its span (the tool's own spans become its children); without a
 * registered tracer provider or context manager, runs it with no span.
 */
export function traceToolCall<T>(
  tool: string,
  fields: Pick<CallRecord, "era" | "session" | "requestId">,
  run: (span?: Span) => Promise<T>,
): Promise<T> {
  if (!otelRegistered()) return run();
  if (!loaded) {
    loading ??= import("@opentelemetry/api");
    return loading.then((api) => {
      loaded ??= { api, tracer: api.trace.getTracer("@mcp-gen/runtime") };
      return traceToolCall(tool, fields, run);
    });
  }
  const { api, tracer } = loaded;
  const span = tracer.startSpan(`tools/call ${tool}`, {
    kind: api.SpanKind.SERVER,
    attributes: {
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": tool,
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": String(fields.requestId),
      ...(fields.session ? { "mcp.session.id": fields.session } : {}),
      ...(fields.era === "2026-07-28" ? { "mcp.protocol.version": "2026-07-28" } : {}),
    },
  });
  return api.context.with(api.trace.setSpan(api.context.active(), span), () => run(span));
}

/**
 * Ends a tool call's span with its outcome: ERROR status and `error.type` unless it went well (a
 * span exists only once `traceToolCall` loaded the API).
 */
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
      code: loaded!.api.SpanStatusCode.ERROR,
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
