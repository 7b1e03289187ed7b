import { type GetPromptResult, ProtocolErrorCode, type Result } from "@modelcontextprotocol/server";
import { formatIssues } from "../validation/format.ts";
import type { CallEnvironment, Target } from "./call-tool.ts";
import { coerceAndCheck } from "./coerce.ts";
import { execute } from "./execute.ts";
import { unsafeArguments } from "./guard.ts";
import { handlerFailure, invalidResult } from "./handler-errors.ts";
import type { Outcome } from "./invocation.ts";
import type { ManifestPrompt } from "./manifest.ts";
import { protocolError } from "./protocol.ts";
import type { FeatureRequest } from "./resources.ts";

/**
 * Answers `prompts/get`: an unknown prompt is `-32602`; the arguments (strings) are coerced and
 * validated before the implementation runs (`-32602` with the validator's message). A string
 * result is one user message with text content, an array the messages as given; the
 * `description` comes from the definition.
 */
export async function getPrompt(
  request: FeatureRequest<ReadonlyMap<string, ManifestPrompt>>,
): Promise<Result> {
  const { catalog: prompts, params, environment, parked } = request;
  const { name, arguments: raw } = (params ?? {}) as { name?: unknown; arguments?: unknown };
  if (typeof name !== "string") {
    throw protocolError(ProtocolErrorCode.InvalidParams, "Invalid params: prompts/get takes a string name");
  }
  const prompt = prompts.get(name);
  if (!prompt)
    throw protocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${JSON.stringify(name)}`);
  const env = environment({ kind: "prompt", name });
  const strings = stringArguments(raw, name, env);
  const checked = coerceAndCheck(
    strings,
    prompt.coerce,
    prompt.input,
    `arguments of prompt ${JSON.stringify(name)}`,
  );
  if (!checked.ok) throw protocolError(ProtocolErrorCode.InvalidParams, checked.message);
  return execute({ target: promptTarget(prompt), args: checked.value, argsKey: raw ?? {}, env, parked });
}

/** The arguments of `prompts/get`: an object of strings (spec `{ [key: string]: string }`), or none. */
function stringArguments(raw: unknown, name: string, env: CallEnvironment): Record<string, string> {
  if (raw === undefined) return {};
  const subject = `Invalid arguments of prompt ${JSON.stringify(name)}`;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw protocolError(
      ProtocolErrorCode.InvalidParams,
      `${subject}: prompt arguments are an object of strings`,
    );
  }
  const unsafe = unsafeArguments(raw, env.limits);
  if (unsafe) throw protocolError(ProtocolErrorCode.InvalidParams, formatIssues([unsafe], subject));
  const strings: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value !== "string") {
      throw protocolError(
        ProtocolErrorCode.InvalidParams,
        `${subject}: argument ${JSON.stringify(key)} must be a string (prompt arguments travel as strings)`,
      );
    }
    strings[key] = value;
  }
  return strings;
}

/** A prompt as an invocation target: its value becomes `messages`, a throw a JSON-RPC error. */
function promptTarget(prompt: ManifestPrompt): Target<GetPromptResult> {
  const { name, description } = prompt.definition;
  const target = {
    key: `prompt:${name}`,
    label: `Prompt ${JSON.stringify(name)}`,
    name,
    source: "prompt" as const,
    usesContext: prompt.usesContext,
    run: (args: unknown, context: Parameters<ManifestPrompt["get"]>[1]) => prompt.get(args, context),
    settle(outcome: Outcome, env: CallEnvironment): GetPromptResult {
      if (!outcome.ok) throw handlerFailure(target, outcome.error, env);
      const messages = toMessages(outcome.value);
      if (!messages) {
        throw invalidResult(
          target,
          {
            message: "a prompt returns a string or a list of messages ({ role, content })",
            value: outcome.value,
          },
          env,
        );
      }
      return { ...(description !== undefined ? { description } : {}), messages } as GetPromptResult;
    },
  };
  return target;
}

function toMessages(value: unknown): unknown[] | undefined {
  if (typeof value === "string") return [{ role: "user", content: { type: "text", text: value } }];
  if (!Array.isArray(value)) return undefined;
  const valid = value.every(
    (m) =>
      m !== null &&
      typeof m === "object" &&
      (m.role === "user" || m.role === "assistant") &&
      m.content !== null &&
      typeof m.content === "object",
  );
  return valid ? value : undefined;
}
