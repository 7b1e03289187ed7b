import type { CallToolResult } from "@modelcontextprotocol/client";

/** The content blocks of a tool result (text, images, resources …). */
export type ToolContent = CallToolResult["content"];

/**
 * A tool call that succeeded: `value` is the typed structured result (unwrapped from `{ result }`
 * where the contract says so and the server sent that 2025 form).
 */
export interface ToolCallSuccess<T> {
  ok: true;
  value: T;
  content: ToolContent;
  /** The result exactly as the server sent it. */
  raw: CallToolResult;
}

/** A tool call the tool itself reported as failed (`isError: true`); `message` joins its text content. */
export interface ToolCallFailure {
  ok: false;
  tool: string;
  message: string;
  content: ToolContent;
  raw: CallToolResult;
}

/**
 * What every typed client method resolves to: tool errors (`isError`) are values, not exceptions,
 * so callers (and agent loops) handle them with a plain `if (!r.ok)`. Protocol failures (unknown
 * tool, transport closed, timeout) and contract violations still throw.
 */
export type ToolCallResult<T> = ToolCallSuccess<T> | ToolCallFailure;

/** Thrown by `expectOk` for a failed tool result. */
export class ToolCallError extends Error {
  override readonly name = "ToolCallError";
  constructor(readonly failure: ToolCallFailure) {
    super(`tool "${failure.tool}" failed: ${failure.message}`);
  }
}

/**
 * Returns the value of a successful result and throws `ToolCallError` for a failed one,
 * for callers that prefer exceptions.
 *
 * @example
 * const devices = expectOk(await home.searchDevices({ query: "客厅 灯" }));
 */
export function expectOk<T>(result: ToolCallResult<T>): T {
  if (result.ok) return result.value;
  throw new ToolCallError(result);
}

/** The text of a result's text blocks, joined by newlines. */
export function textOf(content: ToolContent): string {
  return content
    .filter((block): block is Extract<ToolContent[number], { type: "text" }> => block.type === "text")
    .map((block) => block.text)
    .join("\n");
}
