import type { ProtocolEra, Result, ServerContext } from "@modelcontextprotocol/server";
import { type OutcomeNote, outcomeOf, requestFields } from "./call-log.ts";
import type { McpGenServerOptions } from "./options.ts";
import { endToolSpan, type Span, traceToolCall, tracing } from "./tracing.ts";

/** One served call to observe: what it is, its request, and how it runs. */
export interface ObservedCall {
  kind: "tool" | "resource" | "prompt";
  params: unknown;
  ctx: ServerContext;
  era: ProtocolEra;
  run(note: OutcomeNote): Result | Promise<Result>;
}

/**
 * Serves one call (`run`) and, with `onCall`, records it once answered: name, duration,
 * outcome (from the result, or what the call noted), era, principal, session. Tool calls are
 * traced (a span when OpenTelemetry is active). Nothing is measured that nobody reads.
 */
export function observed(
  options: Pick<McpGenServerOptions, "onCall" | "logArguments">,
  call: ObservedCall,
): Result | Promise<Result> {
  // Nobody reads the outcome (no call log, no span): the call alone, no record, no closures, and
  // no promise of its own around the call's.
  if (!options.onCall && (call.kind !== "tool" || !tracing())) return call.run({});
  return recorded(options, call);
}

/** A call someone reads the outcome of: its record (`onCall`), its span. */
async function recorded(
  options: Pick<McpGenServerOptions, "onCall" | "logArguments">,
  call: ObservedCall,
): Promise<Result> {
  const { kind, params, ctx, era, run } = call;
  const onCall = options.onCall;
  const note: OutcomeNote = {};
  // The record's time and duration only when someone reads the record (`onCall`).
  const time = onCall ? new Date().toISOString() : "";
  const started = onCall ? performance.now() : 0;
  const { name, uri, arguments: args } = (params ?? {}) as Record<string, unknown>;
  const fields = requestFields(ctx, era);
  const finish = (settled: { ok: true; value: Result } | { ok: false; error: unknown }, span?: Span) => {
    const outcome = outcomeOf(settled, note);
    if (span) endToolSpan(span, outcome, settled.ok ? undefined : settled.error);
    if (!onCall) return;
    onCall({
      time,
      kind,
      name: String((kind === "resource" ? uri : name) ?? ""),
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      outcome,
      ...fields,
      ...(options.logArguments && args !== undefined ? { arguments: args } : {}),
    });
  };
  const settle = async (span?: Span) => {
    try {
      const value = await run(note);
      finish({ ok: true, value }, span);
      return value;
    } catch (error) {
      finish({ ok: false, error }, span);
      throw error;
    }
  };
  return kind === "tool" ? traceToolCall(String(name), fields, settle) : settle();
}
