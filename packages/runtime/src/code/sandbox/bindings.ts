import { RESULT_WRAPPED_META } from "@mcp-gen/schema/contract";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { localToolContext } from "../../agent/tools/local-context.ts";
import type { ToolSpec } from "../../client/call.ts";
import { type CallEnvironment, callTool, toolTarget } from "../../server/call-tool.ts";
import type { ServerManifest, ToolDefinition } from "../../server/manifest.ts";
import { logToStderr } from "../../server/options.ts";
import { innerToolContext } from "./inner-context.ts";
import { manifestAnswer } from "./manifest-answer.ts";
import type { ProgramTool, ToolCallOptions } from "./types.ts";
import type { UpstreamRelay } from "./upstream-relay.ts";

/**
 * Whether calls of a tool need permission, by MCP's defaults: a tool is destructive unless it is
 * read-only (`readOnlyHint: true`) or says it is not (`destructiveHint: false`).
 */
export function isDestructive(definition: { readonly annotations?: ToolDefinition["annotations"] }): boolean {
  const hints = definition.annotations ?? {};
  return hints.readOnlyHint !== true && hints.destructiveHint !== false;
}

/**
 * The tools of a generated manifest as bindings, run in this process exactly as `serve()` runs
 * them (thrown errors and timeouts become `isError` results), except that the arguments, which
 * the bridge checked with the same validator, are not checked a second time (only the safety
 * walk of `serve()` runs again). Each binding also `answer`s: the bridge gets the program's value
 * already checked by the tool's output validator and serialised once. Tools that declare a `ToolContext`
 * get the run's `context` — the client of the served code tool's call answers their questions —
 * or, without one, a context that has no client to sample from or elicit with.
 *
 * @example
 * import { createManifest } from "../generated/ledger/server.ts";
 * const api = { ledger: bindManifest(createManifest({ LedgerTools: tools })) };
 */
export function bindManifest(manifest: ServerManifest): Record<string, ProgramTool> {
  const bindings: Record<string, ProgramTool> = {};
  let calls = 0;
  for (const tool of manifest.tools) {
    const name = tool.definition.name;
    const target = toolTarget(tool);
    const env = ({ signal, context: outer, progress }: ToolCallOptions): CallEnvironment => ({
      limits: { maxDepth: 64 },
      maskErrors: false,
      timeoutMs: undefined,
      requestSignal: signal,
      context: (callSignal) =>
        outer
          ? innerToolContext({
              outer,
              toolName: name,
              signal: callSignal,
              progress: progress ?? { count: 0 },
            })
          : localToolContext({
              toolName: name,
              execution: {
                callId: `code-${++calls}`,
                signal: callSignal,
                timeoutMs: undefined,
                notify: () => {},
              },
              signal: callSignal,
            }),
      // A result that breaks its schema is a bug of the tool: logged as `serve()` logs it by default.
      report: logToStderr,
    });
    bindings[name] = {
      input: tool.input,
      ...(tool.output ? { output: tool.output } : {}),
      resultWrapped: tool.resultWrapped,
      destructive: isDestructive(tool.definition),
      call: (args, options) => callTool(tool, args, env(options), { validated: true, target }),
      answer: (args, options) => manifestAnswer({ tool, args, target, options, env, report: logToStderr }),
    };
  }
  return bindings;
}

/** The part of an SDK `Client` the bindings of `bindClientTools` use. */
export interface ToolCallingPeer {
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    options?: { signal?: AbortSignal },
  ): Promise<unknown>;
}

/** Options of `bindClientTools()`. */
export interface BindClientToolsOptions {
  /** A connected MCP client (`@modelcontextprotocol/client`'s `Client`, or `connect…().client`). */
  client: ToolCallingPeer;
  /** The tools to bind: the server's `tools/list`, or the generated `tools` of its contract. */
  tools: readonly {
    readonly name: string;
    readonly annotations?: ToolDefinition["annotations"];
    readonly _meta?: { readonly [key: string]: unknown };
    /** Checked against each structured result by a `relay` (the SDK client checks its own calls). */
    readonly outputSchema?: unknown;
    /** `taskSupport: "required"` (listed by 2025 servers): a `relay` calls the tool as a task. */
    readonly execution?: { readonly taskSupport?: string };
  }[];
  /** The generated validators of the same tools (`generated/<server>/index.ts`), by tool name. */
  specs?: Readonly<Record<string, Omit<ToolSpec, "name">>>;
  /**
   * Calls through a relay of the same client (`relayUpstream`): what the server asks while it
   * serves a call (elicitation, sampling, roots, progress, logs) goes to the client of the run's
   * `context`. Without it, the client's own handlers answer.
   */
  relay?: UpstreamRelay;
}

/**
 * The tools of an MCP server, reached through a client, as bindings: every call is a
 * `tools/call` on that client (its signal cancels the request when the run ends), through
 * `relay` when given.
 *
 * @example
 * const { tools } = await client.listTools();
 * const api = { memory: bindClientTools({ client, tools }) };
 */
export function bindClientTools(options: BindClientToolsOptions): Record<string, ProgramTool> {
  const bindings: Record<string, ProgramTool> = {};
  for (const definition of options.tools) {
    const spec = options.specs?.[definition.name];
    bindings[definition.name] = {
      ...(spec?.input ? { input: spec.input } : {}),
      ...(spec?.output ? { output: spec.output } : {}),
      // an mcp-gen server lists a wrapped result's tool with `_meta["dev.mcp-gen/resultWrapped"]`
      ...(spec?.resultWrapped || definition._meta?.[RESULT_WRAPPED_META] === true
        ? { resultWrapped: true }
        : {}),
      destructive: isDestructive(definition),
      call: async (args, { signal, context, progress }) =>
        options.relay
          ? options.relay.call({
              name: definition.name,
              args,
              signal,
              ...(context ? { context } : {}),
              ...(progress ? { progress } : {}),
              ...(definition.outputSchema !== undefined ? { outputSchema: definition.outputSchema } : {}),
              ...(definition.execution?.taskSupport === "required" ? { taskOnly: true } : {}),
            })
          : ((await options.client.callTool(
              { name: definition.name, arguments: args },
              { signal },
            )) as CallToolResult),
    };
  }
  return bindings;
}
