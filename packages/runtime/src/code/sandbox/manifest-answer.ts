import { MissingRequiredClientCapabilityError } from "@modelcontextprotocol/server";
import { isToolResult } from "../../content.ts";
import type { CallEnvironment, Target } from "../../server/call-tool.ts";
import { execute } from "../../server/execute.ts";
import { unsafeArguments } from "../../server/guard.ts";
import type { Outcome } from "../../server/invocation.ts";
import { TimeoutError } from "../../server/invocation.ts";
import type { ManifestTool } from "../../server/manifest.ts";
import { checkedStructured, plainText, type ResultProblem } from "../../server/result.ts";
import { ToolError } from "../../tool-error.ts";
import { formatIssues } from "../../validation/format.ts";
import type { ProgramAnswer, ToolCallOptions } from "./types.ts";

/**
 * A manifest tool's `answer` for the bridge (`ProgramTool.answer`): the tool runs as `serve()`
 * runs it in process — the safety walk of its arguments (the bridge checked them with the same
 * input validator), its implementation, its result checked with its own output validator — but
 * what comes back is the value the program receives, serialised once, not a `tools/call` result
 * the bridge would unpack, check and serialise again. A tool without a context is called
 * directly, so a synchronous tool is answered in the same turn and an async one one promise later;
 * a tool with a context runs through `execute` (an `Invocation`, cancellable) like any served call.
 */
export function manifestAnswer(setup: {
  tool: ManifestTool;
  args: unknown;
  /** The call's options (the run's signal, context and progress). */
  options: ToolCallOptions;
  /** The environment of `callTool` for a tool that needs a context (built only for those). */
  env: (options: ToolCallOptions) => CallEnvironment;
  target: Target<unknown>;
  /** Where a result that breaks its schema is reported (the same as the environment's `report`). */
  report: Report;
}): ProgramAnswer | Promise<ProgramAnswer> {
  const { tool, args, report } = setup;
  const name = tool.definition.name;
  const unsafe = unsafeArguments(args, { maxDepth: 64 });
  if (unsafe) return { ok: false, message: formatIssues([unsafe], `Invalid arguments of tool "${name}"`) };
  if (tool.usesContext) {
    const target: Target<ProgramAnswer> = {
      ...setup.target,
      settle: (outcome) => settled(tool, outcome, report),
    };
    return execute({ target, args, env: setup.env(setup.options) }) as Promise<ProgramAnswer>;
  }
  let value: unknown;
  try {
    value = tool.invoke(args, undefined);
  } catch (error) {
    return thrownAnswer(name, error);
  }
  if (typeof (value as { then?: unknown } | null)?.then === "function")
    return Promise.resolve(value).then(
      (resolved) => valueAnswer(tool, resolved, report),
      (error: unknown) => thrownAnswer(name, error),
    );
  return valueAnswer(tool, value, report);
}

type Report = CallEnvironment["report"];

function settled(tool: ManifestTool, outcome: Outcome, report: Report): ProgramAnswer {
  return outcome.ok
    ? valueAnswer(tool, outcome.value, report)
    : thrownAnswer(tool.definition.name, outcome.error);
}

/**
 * The implementation's value as the program receives it, as `toCallResult` and the bridge's
 * unpacking would have made it: structured data checked by `checkedStructured` (the rule
 * `toCallResult` uses), unwrapped from `{ result }`; without an output schema, the text the result
 * would carry (`plainText`); content blocks as their text, or as the blocks.
 */
function valueAnswer(tool: ManifestTool, value: unknown, report: Report): ProgramAnswer {
  const name = tool.definition.name;
  try {
    if (isToolResult(value)) {
      const blocks = value.content;
      const text = blocks.every((block) => block.type === "text");
      return {
        ok: true,
        json: JSON.stringify(
          text ? blocks.map((block) => (block as { text: string }).text).join("\n") : blocks,
        ),
      };
    }
    const output = tool.output;
    if (!output) return { ok: true, json: JSON.stringify(value === undefined ? "" : plainText(value)) };
    const checked = checkedStructured(tool, value);
    if (!checked.ok) return mismatch(name, checked.problem, report);
    const { structured } = checked;
    const programValue = tool.resultWrapped ? (structured as { result: unknown }).result : structured;
    return { ok: true, json: JSON.stringify(programValue ?? null), checkedBy: output };
  } catch (error) {
    // not JSON (a BigInt, a cycle): as `toCallResult`, a result that breaks the schema
    return tool.output
      ? mismatch(name, { message: `result is not JSON: ${(error as Error).message}`, value }, report)
      : thrownAnswer(name, error);
  }
}

/** Reported as `callTool` reports it, and worded as it words it. */
function mismatch(name: string, problem: ResultProblem, report: Report): ProgramAnswer {
  report({ kind: "invalid-result", tool: name, message: problem.message, value: problem.value });
  return {
    ok: false,
    message: `Tool "${name}" produced a result that does not match its output schema (a server bug; it was logged).`,
  };
}

/** What the tool threw, worded as `callTool` words it in process (errors are not masked). */
function thrownAnswer(name: string, error: unknown): ProgramAnswer {
  if (error instanceof MissingRequiredClientCapabilityError) throw error;
  if (error instanceof TimeoutError || error instanceof ToolError)
    return { ok: false, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { ok: false, message: message || `Tool "${name}" failed.` };
}
