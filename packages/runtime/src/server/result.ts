import type { CallToolResult, ProtocolEra } from "@modelcontextprotocol/server";
import { isToolResult } from "../content.ts";
import type { ManifestTool } from "./manifest.ts";

/** An `isError` result with one text block. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** Why a result could not be sent as the tool's schema promises. */
export interface ResultProblem {
  message: string;
  value: unknown;
}

/**
 * Turns what an implementation returned into a `tools/call` result: content blocks as they
 * are; structured data checked against the output validator and sent as `structuredContent`
 * plus a text copy. A non-object result the contract wraps travels as `{ result }` to 2025
 * clients and as itself to 2026-07-28 clients (whose `structuredContent` may be any JSON
 * value); the same validator checks both. A string result travels as its own text; anything
 * else as its JSON.
 */
export function toCallResult(
  tool: ManifestTool,
  value: unknown,
  era: ProtocolEra = "legacy",
): CallToolResult | ResultProblem {
  if (isToolResult(value)) return { content: [...value.content] };
  if (!tool.output) {
    if (value === undefined) return { content: [] };
    return { content: [{ type: "text", text: plainText(value) }] };
  }
  const checked = checkedStructured(tool, value);
  if (!checked.ok) return checked.problem;
  const { structured } = checked;
  const sent =
    tool.resultWrapped && era === "modern" ? (structured as { result: unknown }).result : structured;
  let text: string;
  try {
    text = tool.resultWrapped && typeof value === "string" ? value : stringify(sent);
  } catch (error) {
    return { message: `result is not JSON: ${(error as Error).message}`, value };
  }
  return {
    content: [{ type: "text", text }],
    structuredContent: sent,
  } as CallToolResult;
}

/** The text of a result without an output schema: a string as itself, anything else as its JSON. */
export function plainText(value: unknown): string {
  return typeof value === "string" ? value : stringify(value);
}

/**
 * A tool's structured result (`{ result }` when the contract wraps it) as its output validator
 * accepts it: as it is, or else its JSON form (Dates, class instances with `toJSON` …: what the
 * client receives), checked again. The one rule `toCallResult` and the code-mode bridge's answers
 * (`code/sandbox/manifest-answer.ts`) share. The tool must have an output validator.
 */
export function checkedStructured(
  tool: ManifestTool,
  value: unknown,
): { ok: true; structured: unknown } | { ok: false; problem: ResultProblem } {
  const output = tool.output!;
  const structured: unknown = tool.resultWrapped ? { result: value } : value;
  if (output.is(structured)) return { ok: true, structured };
  let normalized: unknown;
  try {
    normalized = JSON.parse(JSON.stringify(structured) ?? "null");
  } catch (error) {
    return { ok: false, problem: { message: `result is not JSON: ${(error as Error).message}`, value } };
  }
  const checked = output.check(normalized);
  if (!checked.ok) return { ok: false, problem: { message: checked.message, value } };
  return { ok: true, structured: normalized };
}

function stringify(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

export function isProblem(value: CallToolResult | ResultProblem): value is ResultProblem {
  return typeof (value as ResultProblem).message === "string" && !("content" in value);
}
