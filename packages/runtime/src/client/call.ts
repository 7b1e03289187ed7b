import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ValidationError, type Validator } from "../validation/validator.ts";
import { type ToolCallResult, textOf } from "./result.ts";

/** The part of an SDK `Client` a typed client needs (any object with a compatible `callTool` works). */
export interface ToolCallingClient {
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: RequestOptions,
  ): Promise<unknown>;
}

/** Options of a generated typed client. */
export interface TypedClientOptions {
  /** Validate arguments with the generated validator before sending (default `true`); invalid ones throw `ValidationError` and are never sent. */
  validateArguments?: boolean;
  /** Validate `structuredContent` against the output validator (default `true`); a mismatch throws `ValidationError`. */
  validateResults?: boolean;
}

/** What the generated client knows about one tool. */
export interface ToolSpec {
  name: string;
  input?: Validator<unknown>;
  output?: Validator<unknown>;
  /** The structured result is `{ result: T }`; the typed value is `T`. */
  resultWrapped?: boolean;
}

/** Per-call options, passed to the SDK request (progress, cancellation, timeout). */
export type CallOptions = RequestOptions;

/** A function calling one tool as described by its spec; the generated client fixes its types. */
export type ToolCaller = (
  spec: ToolSpec,
  args: unknown,
  options?: CallOptions,
) => Promise<ToolCallResult<any>>;

/**
 * Creates the function a generated typed client calls its tools with: validates the arguments,
 * calls the tool, turns `isError` into `{ ok: false }`, and validates and unwraps the structured result.
 *
 * @example
 * const call = createToolCaller(client, { validateResults: false });
 * const r = await call({ name: "search_devices", resultWrapped: true }, { query: "灯" });
 */
export function createToolCaller(client: ToolCallingClient, options: TypedClientOptions = {}): ToolCaller {
  const validateArguments = options.validateArguments ?? true;
  const validateResults = options.validateResults ?? true;
  return async (spec, args, callOptions) => {
    const input = (args ?? {}) as Record<string, unknown>;
    if (validateArguments && spec.input) {
      const checked = spec.input.check(input);
      if (!checked.ok) throw new ValidationError(checked.message, checked.issues);
    }
    const raw = (await client.callTool(
      { name: spec.name, arguments: input },
      undefined,
      callOptions,
    )) as CallToolResult;
    const content = raw.content ?? [];
    if (raw.isError) return { ok: false, tool: spec.name, message: textOf(content), content, raw };
    if (!spec.output && !spec.resultWrapped) return { ok: true, value: content, content, raw };
    const structured = structuredOf(raw, spec, validateResults);
    return { ok: true, value: spec.resultWrapped ? structured.result : structured, content, raw };
  };
}

/**
 * The structured result: `structuredContent`, or — for servers that only send text — the JSON
 * of a single text block (or the text itself as `{ result }` for wrapped results).
 */
function structuredOf(raw: CallToolResult, spec: ToolSpec, validate: boolean): Record<string, unknown> {
  const candidates: unknown[] = [];
  if (raw.structuredContent !== undefined) candidates.push(raw.structuredContent);
  else {
    const text =
      raw.content?.length === 1 && raw.content[0]?.type === "text" ? raw.content[0].text : undefined;
    if (text !== undefined) {
      const parsed = parseJson(text);
      if (parsed.ok) candidates.push(parsed.value);
      if (spec.resultWrapped) {
        if (parsed.ok) candidates.push({ result: parsed.value });
        candidates.push({ result: text });
      }
    }
  }
  if (candidates.length === 0) {
    throw new ValidationError(
      `tool "${spec.name}" returned no structured content although its contract has an output schema`,
      [],
    );
  }
  if (!validate || !spec.output) return candidates[0] as Record<string, unknown>;
  let first: { message: string; issues: ValidationError["issues"] } | undefined;
  for (const candidate of candidates) {
    const checked = spec.output.check(candidate);
    if (checked.ok) return candidate as Record<string, unknown>;
    first ??= checked;
  }
  throw new ValidationError(first!.message, first!.issues);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
