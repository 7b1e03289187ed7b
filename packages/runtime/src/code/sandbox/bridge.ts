import type { CallToolResult } from "@modelcontextprotocol/client";
import type { ToolContext } from "../../context.ts";
import type { PermissionRequest, ProgramCallOutcome, ProgramTool } from "./types.ts";

/** What the program receives for one call: JSON, or an error it can catch. */
export type BridgeAnswer =
  | { ok: true; json: string; outcome: "ok"; args: unknown }
  | { ok: false; name: string; message: string; outcome: Exclude<ProgramCallOutcome, "ok">; args: unknown };

/** One call leaving the sandbox. */
export interface BridgeCall {
  namespace: string;
  fn: string;
  /** The arguments, parsed once from the JSON text the program's engine wrote. */
  args: unknown;
  binding: ProgramTool | undefined;
  permission: ((request: PermissionRequest) => boolean | Promise<boolean>) | undefined;
  signal: AbortSignal;
  /** The run's context and progress count, for the tool (see `ToolCallOptions`). */
  context?: ToolContext;
  progress?: { count: number };
}

/**
 * Runs one call through the bridge, in order: the input validator, the permission hook (for
 * destructive tools), the tool, the output validator. Every refusal or failure is an answer the
 * program receives as a thrown error; nothing here throws.
 */
export async function bridgeCall(call: BridgeCall): Promise<BridgeAnswer> {
  const tool = `${call.namespace}.${call.fn}`;
  const { args } = call;
  const refuse = (
    outcome: Exclude<ProgramCallOutcome, "ok">,
    name: string,
    message: string,
  ): BridgeAnswer => ({
    ok: false,
    name,
    message,
    outcome,
    args,
  });
  const { binding } = call;
  if (!binding) return refuse("invalid-arguments", "TypeError", `${tool} is not a function of the API`);
  if (binding.input) {
    const checked = binding.input.check(args);
    if (!checked.ok) return refuse("invalid-arguments", "ValidationError", checked.message);
  } else if (args === null || typeof args !== "object" || Array.isArray(args)) {
    return refuse("invalid-arguments", "ValidationError", `${tool} takes one object of named arguments`);
  }
  const named = args as Record<string, unknown>;
  if (binding.destructive) {
    const allowed = call.permission
      ? await ask(call.permission, { namespace: call.namespace, fn: call.fn, arguments: named })
      : false;
    if (allowed !== true) {
      const why =
        typeof allowed === "string"
          ? allowed
          : call.permission
            ? "the user did not allow it"
            : "no one can approve destructive calls in this run";
      return refuse(
        "denied",
        "PermissionError",
        `${tool} was not run: it is destructive and ${why}. Do not retry it; tell the user what you meant to do.`,
      );
    }
  }
  if (call.signal.aborted)
    return refuse("cancelled", "AbortError", `${tool} was not run: the run was cancelled`);
  let result: CallToolResult;
  try {
    result = await binding.call(named, {
      signal: call.signal,
      ...(call.context ? { context: call.context, progress: call.progress ?? { count: 0 } } : {}),
    });
  } catch (error) {
    if (call.signal.aborted) return refuse("cancelled", "AbortError", `${tool} was cancelled with the run`);
    return refuse(
      "tool-error",
      "ToolError",
      `${tool} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (result.isError)
    return refuse("tool-error", "ToolError", `${tool} failed: ${textOf(result) || "(no message)"}`);
  const value = resultValue(binding, result);
  if (binding.output && result.structuredContent !== undefined) {
    const checked = binding.output.check(binding.resultWrapped ? { result: value } : value);
    if (!checked.ok)
      return refuse(
        "invalid-result",
        "ToolError",
        `${tool} returned a result that breaks its own output schema (a bug of the tool, not of the program): ${checked.message}`,
      );
  }
  return { ok: true, json: JSON.stringify(value ?? null), outcome: "ok", args };
}

/** Asks the hook; a hook that throws refuses, with its message. */
async function ask(
  permission: (request: PermissionRequest) => boolean | Promise<boolean>,
  request: PermissionRequest,
): Promise<boolean | string> {
  try {
    return await permission(request);
  } catch (error) {
    return `the permission check failed (${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * What the program gets from a result: the structured content (unwrapped from `{ result }` for
 * a wrapped contract), else the text of its text blocks, else its content blocks.
 */
function resultValue(binding: ProgramTool, result: CallToolResult): unknown {
  const structured = result.structuredContent;
  if (structured !== undefined) {
    if (
      binding.resultWrapped &&
      structured !== null &&
      typeof structured === "object" &&
      "result" in structured
    )
      return (structured as { result: unknown }).result;
    return structured;
  }
  const content = result.content ?? [];
  if (content.every((block) => block.type === "text")) return textOf(result);
  return content;
}

function textOf(result: CallToolResult): string {
  return (result.content ?? []).flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}
