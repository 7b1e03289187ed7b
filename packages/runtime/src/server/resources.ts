import { ProtocolErrorCode, type ReadResourceResult, type Result } from "@modelcontextprotocol/server";
import type { CallEnvironment, Target } from "./call-tool.ts";
import { coerceAndCheck } from "./coerce.ts";
import { execute } from "./execute.ts";
import { handlerFailure, invalidResult } from "./handler-errors.ts";
import type { Outcome } from "./invocation.ts";
import type { ManifestResource } from "./manifest.ts";
import type { ParkedCalls } from "./parked.ts";
import { protocolError } from "./protocol.ts";
import type { ResourceCatalog } from "./resource-catalog.ts";

/** What a request serves, for the context of its implementation. */
export interface Subject {
  kind: "resource" | "prompt";
  name: string;
  uri?: string;
}

/** A `resources/read` or `prompts/get` request, and what answering it needs. */
export interface FeatureRequest<C> {
  /** What the manifest serves of this kind (its resources, its prompts). */
  catalog: C;
  /** The request's params, as they came. */
  params: unknown;
  /** The environment of a call serving `subject`. */
  environment: (subject: Subject) => CallEnvironment;
  parked: ParkedCalls;
}

/**
 * Answers `resources/read`: the static resource of exactly this URI first, then the first
 * template that matches it, whose variables are coerced and validated before the implementation
 * runs (`-32602` with the validator's message when invalid). An unknown URI is `-32602` with
 * `data: { uri }` (SEP-2164).
 */
export async function readResource(request: FeatureRequest<ResourceCatalog>): Promise<Result> {
  const { catalog, params, environment, parked } = request;
  const uri = (params as { uri?: unknown } | undefined)?.uri;
  if (typeof uri !== "string") {
    throw protocolError(ProtocolErrorCode.InvalidParams, "Invalid params: resources/read takes a string uri");
  }
  const resource = catalog.byUri.get(uri);
  if (resource) {
    const target = resourceTarget(
      uri,
      resource.definition,
      (_, ctx) => resource.read(ctx),
      resource.usesContext,
    );
    const env = environment({ kind: "resource", name: resource.definition.name, uri });
    return execute({ target, args: undefined, argsKey: { uri }, env, parked });
  }
  for (const { entry, matcher } of catalog.templates) {
    const strings = matcher.match(uri);
    if (!strings) continue;
    const { name } = entry.definition;
    const checked = coerceAndCheck(
      strings,
      entry.coerce,
      entry.variables,
      `variables of resource template ${JSON.stringify(name)}`,
    );
    if (!checked.ok) throw protocolError(ProtocolErrorCode.InvalidParams, checked.message, { uri });
    const target = resourceTarget(
      uri,
      entry.definition,
      (args, ctx) => entry.read(args, ctx),
      entry.usesContext,
    );
    const env = environment({ kind: "resource", name, uri });
    return execute({ target, args: checked.value, argsKey: { uri }, env, parked });
  }
  throw protocolError(ProtocolErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
}

/** A resource read as an invocation target: its value becomes `contents`, a throw a JSON-RPC error. */
function resourceTarget(
  uri: string,
  definition: { name: string; mimeType?: string },
  run: (args: unknown, context: Parameters<ManifestResource["read"]>[0]) => unknown,
  usesContext: boolean,
): Target<ReadResourceResult> & { name: string; source: "resource" } {
  const target = {
    key: `resource:${uri}`,
    label: `Resource ${JSON.stringify(definition.name)}`,
    name: definition.name,
    source: "resource" as const,
    usesContext,
    run,
    settle(outcome: Outcome, env: CallEnvironment): ReadResourceResult {
      if (!outcome.ok) throw handlerFailure(target, outcome.error, env);
      const contents = toContents(uri, outcome.value, definition.mimeType);
      if (isProblem(contents)) throw invalidResult(target, contents, env);
      return { contents: [contents] } as ReadResourceResult;
    },
  };
  return target;
}

function isProblem(value: object): value is { message: string; value: unknown } {
  return !("uri" in value);
}

/**
 * One content item of a `resources/read` result: a string is text, a `Uint8Array` a base64
 * blob, any other value its JSON text (`application/json` unless the definition names a MIME type).
 */
export function toContents(
  uri: string,
  value: unknown,
  mimeType: string | undefined,
): Record<string, unknown> | { message: string; value: unknown } {
  const typed = mimeType !== undefined ? { mimeType } : {};
  if (typeof value === "string") return { uri, ...typed, text: value };
  if (value instanceof Uint8Array) {
    const blob = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
    return { uri, ...typed, blob };
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return { message: `result is not JSON: ${(error as Error).message}`, value };
  }
  if (text === undefined) return { message: "the resource returned nothing (undefined)", value };
  return { uri, mimeType: mimeType ?? "application/json", text };
}
