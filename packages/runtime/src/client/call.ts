import type { CallToolRequestOptions, CallToolResult, ProtocolEra } from "@modelcontextprotocol/client";
import { ValidationError, type Validator } from "../validation/validator.ts";
import { type ToolCallResult, textOf } from "./result.ts";

/**
 * The part of an SDK `Client` (`@modelcontextprotocol/client`) a typed client needs; any object
 * with a compatible `callTool` works.
 */
export interface ToolCallingClient {
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    options?: CallOptions,
  ): Promise<unknown>;
  /**
   * The era of the connection. It decides the form of a wrapped result: `{ result: v }` on 2025
   * connections, `v` itself on 2026-07-28 ones. Without it (or before connecting) either form is
   * accepted.
   */
  getProtocolEra?(): ProtocolEra | undefined;
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
  /**
   * The typed value `T` is not an object: 2025 servers send it as `{ result: T }` (which `output`
   * checks), 2026-07-28 servers as `T` itself. The client returns `T` in both cases.
   */
  resultWrapped?: boolean;
  /**
   * The arguments a 2026-07-28 client over HTTP also sends as `Mcp-Param-*` headers: the part of
   * the input schema that declares them (`x-mcp-header`). The SDK client mirrors them without
   * listing the server's tools first.
   */
  headers?: { readonly type: "object"; readonly properties: Readonly<Record<string, unknown>> };
}

/** Per-call options, passed to the SDK's `callTool` (progress, cancellation, timeout …). */
export type CallOptions = CallToolRequestOptions;

/** A function calling one tool as described by its spec; the generated client fixes its types. */
export type ToolCaller = (
  spec: ToolSpec,
  args: unknown,
  options?: CallOptions,
) => Promise<ToolCallResult<any>>;

/** The arguments of a call, checked against the tool's input validator unless `validate` is off. */
export function checkedArguments(spec: ToolSpec, args: unknown, validate: boolean): Record<string, unknown> {
  const input = (args ?? {}) as Record<string, unknown>;
  if (validate && spec.input) {
    const checked = spec.input.check(input);
    if (!checked.ok) throw new ValidationError(checked.message, checked.issues);
  }
  return input;
}

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
    const input = checkedArguments(spec, args, validateArguments);
    const options =
      spec.headers && !callOptions?.toolDefinition
        ? ({ ...callOptions, toolDefinition: { name: spec.name, inputSchema: spec.headers } } as CallOptions)
        : callOptions;
    const raw = (await client.callTool({ name: spec.name, arguments: input }, options)) as CallToolResult;
    return toToolCallResult(raw, spec, { validateResults, era: client.getProtocolEra?.() });
  };
}

/**
 * A `tools/call` result as the typed client returns it: `{ ok: false }` for `isError`, else the
 * structured result checked against the output validator and unwrapped.
 */
export function toToolCallResult(
  raw: CallToolResult,
  spec: ToolSpec,
  options: { validateResults: boolean; era: ProtocolEra | undefined },
): ToolCallResult<any> {
  const content = raw.content ?? [];
  if (raw.isError) return { ok: false, tool: spec.name, message: textOf(content), content, raw };
  if (!spec.output && !spec.resultWrapped) return { ok: true, value: content, content, raw };
  const structured = structuredOf(raw, spec, options.validateResults, options.era);
  return { ok: true, value: spec.resultWrapped ? structured.result : structured, content, raw };
}

/**
 * The structured result in its 2025 form (`{ result: v }` for wrapped results): `structuredContent`,
 * or — for servers that only send text — the JSON of a single text block (or the text itself as
 * `{ result }` for wrapped results). A wrapped `structuredContent` is taken as sent on 2025
 * connections and wrapped here on 2026-07-28 ones; when the era is unknown (and for text), the
 * form the output validator accepts is taken, the likelier one first.
 */
function structuredOf(
  raw: CallToolResult,
  spec: ToolSpec,
  validate: boolean,
  era: ProtocolEra | undefined,
): Record<string, unknown> {
  const candidates: unknown[] = [];
  if (raw.structuredContent !== undefined) {
    const sent = raw.structuredContent;
    if (!spec.resultWrapped || era === "legacy") candidates.push(sent);
    else if (era === "modern") candidates.push({ result: sent });
    else candidates.push(...eitherForm(sent));
  } else {
    const text =
      raw.content?.length === 1 && raw.content[0]?.type === "text" ? raw.content[0].text : undefined;
    if (text !== undefined) {
      const parsed = parseJson(text);
      if (!spec.resultWrapped) {
        if (parsed.ok) candidates.push(parsed.value);
      } else {
        if (parsed.ok) candidates.push(...eitherForm(parsed.value));
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

/**
 * Both forms a wrapped result may come in, the one `value` looks like first: an object whose only
 * key is `result` is the 2025 form, anything else the bare value.
 */
function eitherForm(value: unknown): unknown[] {
  const wrapped =
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    Object.keys(value).join() === "result";
  return wrapped ? [value, { result: value }] : [{ result: value }, value];
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
