import { type CompleteResult, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { handlerFailure, invalidResult } from "./handler-errors.ts";
import type { Completer, ManifestPrompt, ManifestResourceTemplate } from "./manifest.ts";
import type { McpGenServerEvent } from "./options.ts";
import { protocolError } from "./protocol.ts";

/** Most values one completion sends (spec: at most 100). */
export const MAX_COMPLETION_VALUES = 100;

/**
 * Answers `completion/complete` for a prompt argument (`ref/prompt`, by name) or a template
 * variable (`ref/resource`, by `uriTemplate`). A fixed list is filtered by the typed prefix
 * (case-sensitive); a function sees the prefix and the arguments already given
 * (`context.arguments`) and does its own filtering. At most 100 values go out, with `total`
 * and `hasMore`. A ref the server does not know is `-32602` (spec: "Invalid prompt name"); an
 * argument without a completer completes to nothing.
 */
export async function complete(
  catalog: {
    prompts: ReadonlyMap<string, ManifestPrompt>;
    templates: ReadonlyMap<string, ManifestResourceTemplate>;
  },
  params: unknown,
  env: { maskErrors: boolean; report(event: McpGenServerEvent): void },
): Promise<CompleteResult> {
  const { ref, argument, context } = (params ?? {}) as {
    ref?: { type?: unknown; name?: unknown; uri?: unknown };
    argument?: { name?: unknown; value?: unknown };
    context?: { arguments?: unknown };
  };
  if (
    typeof argument?.name !== "string" ||
    typeof argument.value !== "string" ||
    (context?.arguments !== undefined && !isStringRecord(context.arguments))
  ) {
    throw protocolError(
      ProtocolErrorCode.InvalidParams,
      "Invalid params: completion/complete takes a ref, an argument { name, value } and context.arguments of strings",
    );
  }
  let owner: { complete?: { readonly [name: string]: Completer } } | undefined;
  let label: string;
  if (ref?.type === "ref/prompt" && typeof ref.name === "string") {
    owner = catalog.prompts.get(ref.name);
    label = `Prompt ${JSON.stringify(ref.name)}`;
    if (!owner)
      throw protocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${JSON.stringify(ref.name)}`);
  } else if (ref?.type === "ref/resource" && typeof ref.uri === "string") {
    owner = catalog.templates.get(ref.uri);
    label = `Resource template ${JSON.stringify(ref.uri)}`;
    if (!owner) {
      throw protocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown resource template: ${JSON.stringify(ref.uri)}`,
      );
    }
  } else {
    throw protocolError(
      ProtocolErrorCode.InvalidParams,
      'Invalid params: the ref of completion/complete is { type: "ref/prompt", name } or { type: "ref/resource", uri }',
    );
  }
  const completer =
    owner.complete && Object.hasOwn(owner.complete, argument.name)
      ? owner.complete[argument.name]
      : undefined;
  if (completer === undefined) return { completion: { values: [], total: 0, hasMore: false } };
  const prefix = argument.value;
  if (typeof completer !== "function") return page(completer.filter((v) => v.startsWith(prefix)));
  const subject = {
    label: `The completion of ${JSON.stringify(argument.name)} of ${label}`,
    name: String(ref.type === "ref/prompt" ? ref.name : ref.uri),
    source: "completion" as const,
  };
  let values: unknown;
  try {
    values = await completer(prefix, { arguments: (context?.arguments as Record<string, string>) ?? {} });
  } catch (error) {
    throw handlerFailure(subject, error, env);
  }
  if (!Array.isArray(values) || !values.every((v) => typeof v === "string")) {
    throw invalidResult(subject, { message: "a completion returns a list of strings", value: values }, env);
  }
  return page(values);
}

function page(values: readonly string[]): CompleteResult {
  return {
    completion: {
      values: values.slice(0, MAX_COMPLETION_VALUES),
      total: values.length,
      hasMore: values.length > MAX_COMPLETION_VALUES,
    },
  };
}

function isStringRecord(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === "string")
  );
}
