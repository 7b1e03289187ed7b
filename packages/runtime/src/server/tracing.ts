import type { CallOutcome, CallRecord } from "./call-log.ts";

/**
 * OpenTelemetry spans of served tool calls: a no-op unless the application registers an SDK (a
 * tracer provider). Names and attributes follow the OTel semantic conventions for MCP
 * (open-telemetry/semantic-conventions-genai, docs/gen-ai/mcp.md; Development status): span
 * `tools/call <tool>` of kind SERVER with `mcp.method.name`, `gen_ai.tool.name`,
 * `gen_ai.operation.name` `execute_tool`, `mcp.session.id`, `jsonrpc.request.id`,
 * `mcp.protocol.version` (2026-07-28 only: a 2025 session's exact version is not at hand here),
 * and on failure status ERROR with `error.type`.
 *
 * The runtime does not import `@opentelemetry/api` (CommonJS, ~40 ms to load, 44 KB in a bundle):
 * it reads the API's global registry, the object every copy of API 1.x registers the tracer
 * provider and context manager in (`Symbol.for("opentelemetry.js.api.1")`, shared across copies
 * by design), and uses what the application registered there. A bundled server thus carries no
 * OpenTelemetry code of its own, and still traces when the application brings an SDK.
 */

/** The parts of OTel API 1.x's registry, tracer, span and context a call span uses. */
interface OtelRegistry {
  trace?: { getTracer(name: string): OtelTracer };
  context?: { active(): OtelContext; with<T>(context: OtelContext, run: () => T): T };
}
interface OtelTracer {
  startSpan(name: string, options: { kind: number; attributes: Record<string, string> }): Span;
}
interface OtelContext {
  setValue(key: symbol, value: unknown): OtelContext;
}
/** A started span, as the application's SDK implements it. */
export interface Span {
  setAttribute(key: string, value: string): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  end(): void;
}

const OTEL_GLOBAL = Symbol.for("opentelemetry.js.api.1");
/** The context key under which the API keeps the active span (`createContextKey` is `Symbol.for`). */
const SPAN_KEY = Symbol.for("OpenTelemetry Context Key SPAN");
const SPAN_KIND_SERVER = 1;
const SPAN_STATUS_ERROR = 2;

let tracer: { provider: object; tracer: OtelTracer } | undefined;

/** The registry when the application registered a tracer provider. */
function registered(): OtelRegistry | undefined {
  const registry = (globalThis as Record<symbol, OtelRegistry | undefined>)[OTEL_GLOBAL];
  return registry?.trace === undefined ? undefined : registry;
}

/**
 * Runs a `tools/call` inside its span (the tool's own spans become its children when a context
 * manager is registered); without a registered tracer provider, runs it with no span.
 */
export function traceToolCall<T>(
  tool: string,
  fields: Pick<CallRecord, "era" | "session" | "requestId">,
  run: (span?: Span) => Promise<T>,
): Promise<T> {
  const registry = registered();
  if (!registry?.trace) return run();
  if (tracer?.provider !== registry.trace) {
    tracer = { provider: registry.trace, tracer: registry.trace.getTracer("@mcp-gen/runtime") };
  }
  const span = tracer.tracer.startSpan(`tools/call ${tool}`, {
    kind: SPAN_KIND_SERVER,
    attributes: {
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": tool,
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": String(fields.requestId),
      ...(fields.session ? { "mcp.session.id": fields.session } : {}),
      ...(fields.era === "2026-07-28" ? { "mcp.protocol.version": "2026-07-28" } : {}),
    },
  });
  const context = registry.context;
  if (!context) return run(span);
  return context.with(context.active().setValue(SPAN_KEY, span), () => run(span));
}

/** Whether a tracer provider is registered (a call then has a span). */
export function tracing(): boolean {
  return registered() !== undefined;
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
      code: SPAN_STATUS_ERROR,
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
