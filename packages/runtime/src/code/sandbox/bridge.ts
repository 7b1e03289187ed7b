import type { CallToolResult } from "@modelcontextprotocol/client";
import type {
  PermissionRequest,
  ProgramAnswer,
  ProgramCallOutcome,
  ProgramTool,
  ToolCallOptions,
} from "./types.ts";

/** What the program receives for one call: JSON, or an error it can catch. */
export type BridgeAnswer =
  | { readonly ok: true; readonly json: string }
  | { ok: false; name: string; message: string; outcome: Exclude<ProgramCallOutcome, "ok"> };

/** One call leaving the sandbox. */
export interface BridgeCall {
  namespace: string;
  fn: string;
  /** The arguments, parsed once from the JSON text the program's engine wrote. */
  args: unknown;
  binding: ProgramTool | undefined;
  permission: ((request: PermissionRequest) => boolean | Promise<boolean>) | undefined;
  /** The run's: its signal, and its context and progress count for tools that use them (made once per run). */
  options: ToolCallOptions;
}

/**
 * Runs one call through the bridge, in order: the input validator, the permission hook (for
 * destructive tools), the tool, the output validator. Every refusal or failure is an answer the
 * program receives as a thrown error; nothing here throws. Synchronous as far as the call is:
 * a refusal, or a binding that `answer`s at once, is answered without a promise.
 */
export function bridgeCall(call: BridgeCall): BridgeAnswer | Promise<BridgeAnswer> {
  const { binding, args } = call;
  if (!binding)
    return refuse("invalid-arguments", "TypeError", `${toolOf(call)} is not a function of the API`);
  if (binding.input) {
    const checked = binding.input.check(args);
    if (!checked.ok) return refuse("invalid-arguments", "ValidationError", checked.message);
  } else if (args === null || typeof args !== "object" || Array.isArray(args)) {
    return refuse(
      "invalid-arguments",
      "ValidationError",
      `${toolOf(call)} takes one object of named arguments`,
    );
  }
  if (binding.destructive) return permitted(call, binding);
  return runTool(call, binding);
}

/** Asks the permission hook, then runs the tool. */
async function permitted(call: BridgeCall, binding: ProgramTool): Promise<BridgeAnswer> {
  const named = call.args as Record<string, unknown>;
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
      `${toolOf(call)} was not run: it is destructive and ${why}. Do not retry it; tell the user what you meant to do.`,
    );
  }
  return runTool(call, binding);
}

function runTool(call: BridgeCall, binding: ProgramTool): BridgeAnswer | Promise<BridgeAnswer> {
  const { options } = call;
  if (options.signal.aborted)
    return refuse("cancelled", "AbortError", `${toolOf(call)} was not run: the run was cancelled`);
  const named = call.args as Record<string, unknown>;
  try {
    if (binding.answer) {
      const answered = binding.answer(named, options);
      if (isThenable(answered))
        return Promise.resolve(answered).then(
          (answer) => fromAnswer(call, binding, answer),
          (error: unknown) => failed(call, error),
        );
      return fromAnswer(call, binding, answered);
    }
    return Promise.resolve(binding.call(named, options)).then(
      (result) => fromResult(call, binding, result),
      (error: unknown) => failed(call, error),
    );
  } catch (error) {
    return failed(call, error);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

function failed(call: BridgeCall, error: unknown): BridgeAnswer {
  if (call.options.signal.aborted)
    return refuse("cancelled", "AbortError", `${toolOf(call)} was cancelled with the run`);
  return refuse(
    "tool-error",
    "ToolError",
    `${toolOf(call)} failed: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/** An `answer`: passed on as it is when the binding's own output validator already checked it. */
function fromAnswer(call: BridgeCall, binding: ProgramTool, answer: ProgramAnswer): BridgeAnswer {
  if (!answer.ok)
    return refuse("tool-error", "ToolError", `${toolOf(call)} failed: ${answer.message || "(no message)"}`);
  if (!binding.output || answer.checkedBy === binding.output) return answer;
  let value: unknown;
  try {
    value = JSON.parse(answer.json);
  } catch (error) {
    return broken(call, `its answer is not JSON (${(error as Error).message})`);
  }
  return checkedValue(call, binding, value) ?? answer;
}

/** A `CallToolResult`: failures as errors, the program's value checked and serialised. */
function fromResult(call: BridgeCall, binding: ProgramTool, result: CallToolResult): BridgeAnswer {
  if (result.isError)
    return refuse("tool-error", "ToolError", `${toolOf(call)} failed: ${textOf(result) || "(no message)"}`);
  const value = resultValue(binding, result);
  if (result.structuredContent !== undefined) {
    const refused = checkedValue(call, binding, value);
    if (refused) return refused;
  }
  return { ok: true, json: JSON.stringify(value ?? null) };
}

/** The output validator's refusal of a value, if it refuses it. */
function checkedValue(call: BridgeCall, binding: ProgramTool, value: unknown): BridgeAnswer | undefined {
  if (!binding.output) return undefined;
  const checked = binding.output.check(binding.resultWrapped ? { result: value } : value);
  return checked.ok ? undefined : broken(call, checked.message);
}

function broken(call: BridgeCall, why: string): BridgeAnswer {
  return refuse(
    "invalid-result",
    "ToolError",
    `${toolOf(call)} returned a result that breaks its own output schema (a bug of the tool, not of the program): ${why}`,
  );
}

function refuse(outcome: Exclude<ProgramCallOutcome, "ok">, name: string, message: string): BridgeAnswer {
  return { ok: false, name, message, outcome };
}

function toolOf(call: BridgeCall): string {
  return `${call.namespace}.${call.fn}`;
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
export function resultValue(binding: { readonly resultWrapped?: boolean }, result: CallToolResult): unknown {
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
