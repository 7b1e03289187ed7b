import type { AgentEvent } from "./events.ts";

/** Options of `formatEvent()`. */
export interface TraceOptions {
  /** Longest argument or result text shown before it is cut. Default 300. */
  maxLength?: number;
  /** Show durations (off for output that must be stable, e.g. snapshots). Default `true`. */
  times?: boolean;
}

/**
 * One readable trace line (or a few) for an event, `undefined` for events a trace leaves out
 * (text deltas, model requests, the final answer).
 *
 * @example
 * for await (const event of agent.run("打开客厅的灯")) {
 *   const line = formatEvent(event);
 *   if (line) console.error(line);
 * }
 * // → search_devices {"query":"客厅 灯","limit":5}
 * // ← search_devices (2 ms) {"result":[{"id":"abc123",…
 */
export function formatEvent(event: AgentEvent, options: TraceOptions = {}): string | undefined {
  const max = options.maxLength ?? 300;
  const cut = (text: string) => (text.length > max ? `${text.slice(0, max)}…` : text);
  switch (event.type) {
    case "warning":
      return `warning: ${event.message}`;
    case "assistant":
      return event.toolCalls.length > 0 && event.text ? `assistant: ${cut(event.text)}` : undefined;
    case "tool-call": {
      const repaired = event.repairs.length > 0 ? ` (repaired: ${event.repairs.join(", ")})` : "";
      // Router calls name their operation; plain and namespaced names already say it.
      const plain =
        !event.tool || event.tool.endsWith(`/${event.name}`) || event.tool.replace("/", "__") === event.name;
      const target = plain ? "" : ` [${event.tool}]`;
      // a code-mode program reads as code, one line per line
      const program = (event.args as { program?: unknown } | undefined)?.program;
      if (typeof program === "string" && Object.keys(event.args as object).length === 1)
        return `→ ${event.name}${target}${repaired}\n${indent(cut(program))}`;
      return `→ ${event.name}${target} ${cut(json(event.args))}${repaired}`;
    }
    case "validation-error": {
      const left = `attempt ${event.attempt}, ${event.retriesLeft} ${event.retriesLeft === 1 ? "retry" : "retries"} left`;
      return `✗ ${event.name}: not run (${left})\n${indent(event.message)}`;
    }
    case "permission-request":
      return `? ${event.name} needs permission`;
    case "permission-decision":
      return event.decision === "deny"
        ? `  denied: ${event.reason ?? ""}`
        : `  ${event.decision === "edit" ? "allowed with edited arguments" : "allowed"}`;
    case "tool-progress":
      return `  ${event.name} progress ${event.progress}${event.total !== undefined ? `/${event.total}` : ""}${event.message ? ` ${event.message}` : ""}`;
    case "tool-log":
      return `  ${event.name} ${event.level}: ${cut(typeof event.data === "string" ? event.data : json(event.data))}`;
    case "tool-result": {
      const time = options.times === false ? "" : ` (${Math.round(event.durationMs)} ms)`;
      const status = event.outcome === "ok" ? "" : ` ${event.outcome}:`;
      return `← ${event.name}${time}${status} ${cut(event.content.replace(/\s*\n\s*/g, " "))}`;
    }
    default:
      return undefined;
  }
}

function json(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}
