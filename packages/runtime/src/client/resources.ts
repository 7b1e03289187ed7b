import { expandUriTemplate } from "@mcp-gen/schema/uri-template";
import type { GetPromptResult, ReadResourceResult, RequestOptions } from "@modelcontextprotocol/client";
import { ValidationError, type Validator } from "../validation/validator.ts";
import type { TypedClientOptions } from "./call.ts";

/** The part of an SDK `Client` that reads resources; any object with a compatible `readResource` works. */
export interface ResourceReadingClient {
  readResource(params: { uri: string }, options?: RequestOptions): Promise<unknown>;
}

/** The part of an SDK `Client` that gets prompts; any object with a compatible `getPrompt` works. */
export interface PromptGettingClient {
  getPrompt(
    params: { name: string; arguments?: Record<string, string> },
    options?: RequestOptions,
  ): Promise<unknown>;
}

/** Per-request options of resource reads and prompt gets (cancellation, timeout …). */
export type RequestCallOptions = RequestOptions;

/** The contents of a resource as `resources/read` returns them. */
export type ResourceContentsList = ReadResourceResult["contents"];

/** The messages of a prompt as `prompts/get` returns them. */
export type PromptMessages = GetPromptResult["messages"];

/**
 * What the generated client knows about one resource or template: its URI (or URI template), how
 * its value travels (`text`, `blob`, `json`; absent for pulled resources, which return their
 * contents as sent) and the validator of a template's variables.
 */
export interface ResourceSpec {
  name: string;
  uri?: string;
  uriTemplate?: string;
  result?: "text" | "blob" | "json";
  variables?: Validator<unknown>;
}

/** What the generated client knows about one prompt: its name and the validator of its arguments. */
export interface PromptSpec {
  name: string;
  input?: Validator<unknown>;
}

/** Reads one resource as described by its spec; the generated client fixes its types. */
export type ResourceReader = (
  spec: ResourceSpec,
  variables?: unknown,
  options?: RequestCallOptions,
) => Promise<any>;

/** Gets one prompt as described by its spec. */
export type PromptGetter = (
  spec: PromptSpec,
  args?: unknown,
  options?: RequestCallOptions,
) => Promise<PromptMessages>;

/**
 * Creates the function a generated typed client reads its resources with: validates a template's
 * variables, expands the URI template, reads, and returns the value — a string for text, a
 * `Uint8Array` for a blob, the parsed value for JSON, the contents as sent when the kind is unknown.
 *
 * @example
 * const read = createResourceReader(client);
 * const rules = await read({ name: "rules", uri: "home://rules", result: "text" });
 */
export function createResourceReader(
  client: ResourceReadingClient,
  options: TypedClientOptions = {},
): ResourceReader {
  const validate = options.validateArguments ?? true;
  return async (spec, variables, requestOptions) => {
    const values = (variables ?? {}) as Record<string, unknown>;
    if (validate && spec.variables) {
      const checked = spec.variables.check(values);
      if (!checked.ok) throw new ValidationError(checked.message, checked.issues);
    }
    const uri = spec.uri ?? expandUriTemplate(spec.uriTemplate ?? "", values);
    const raw = (await client.readResource({ uri }, requestOptions)) as ReadResourceResult;
    const contents = raw.contents ?? [];
    if (!spec.result) return contents;
    const first = contents[0];
    if (!first) throw new ValidationError(`resource "${spec.name}" (${uri}) returned no contents`, []);
    const text = "text" in first && typeof first.text === "string" ? first.text : undefined;
    const blob = "blob" in first && typeof first.blob === "string" ? first.blob : undefined;
    if (spec.result === "blob")
      return blob !== undefined ? fromBase64(blob) : new TextEncoder().encode(text ?? "");
    const value = text ?? (blob !== undefined ? new TextDecoder().decode(fromBase64(blob)) : "");
    if (spec.result === "text") return value;
    try {
      return JSON.parse(value);
    } catch (error) {
      throw new ValidationError(
        `resource "${spec.name}" (${uri}) is not JSON: ${(error as Error).message}`,
        [],
      );
    }
  };
}

/**
 * Creates the function a generated typed client gets its prompts with: validates the typed
 * arguments, sends them as strings (as `prompts/get` wants them) and returns the messages.
 *
 * @example
 * const get = createPromptGetter(client);
 * const messages = await get({ name: "review_code" }, { code: "x", max_comments: 3 });
 */
export function createPromptGetter(
  client: PromptGettingClient,
  options: TypedClientOptions = {},
): PromptGetter {
  const validate = options.validateArguments ?? true;
  return async (spec, args, requestOptions) => {
    const values = (args ?? {}) as Record<string, unknown>;
    if (validate && spec.input) {
      const checked = spec.input.check(values);
      if (!checked.ok) throw new ValidationError(checked.message, checked.issues);
    }
    const strings: Record<string, string> = {};
    for (const [key, value] of Object.entries(values)) if (value !== undefined) strings[key] = String(value);
    const raw = (await client.getPrompt(
      { name: spec.name, arguments: strings },
      requestOptions,
    )) as GetPromptResult;
    return raw.messages;
  };
}

function fromBase64(data: string): Uint8Array {
  return new Uint8Array(Buffer.from(data, "base64"));
}
