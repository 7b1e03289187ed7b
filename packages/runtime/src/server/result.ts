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
  const output = tool.output;
  if (!output) {
    if (value === undefined) return { content: [] };
    return { content: [{ type: "text", text: typeof value === "string" ? value : stringify(value) }] };
  }
  let structured: unknown = tool.resultWrapped ? { result: value } : value;
  if (!output.is(structured)) {
    // Dates, class instances with toJSON …: what the client receives is the JSON form.
    let normalized: unknown;
    try {
      normalized = JSON.parse(JSON.stringify(structured) ?? "null");
    } catch (error) {
      return { message: `result is not JSON: ${(error as Error).message}`, value };
    }
    const checked = output.check(normalized);
    if (!checked.ok) return { message: checked.message, value };
    structured = normalized;
  }
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

function stringify(value: unknown): string {
  return JSON.stringify(value) ?? "null";
}

export function isProblem(value: CallToolResult | ResultProblem): value is ResultProblem {
  return typeof (value as ResultProblem).message === "string" && !("content" in value);
}
