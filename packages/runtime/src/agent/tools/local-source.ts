import { type Connection, connectInMemory } from "../../client/connect.ts";
import { callTool } from "../../server/call-tool.ts";
import { DEFAULT_MAX_ARGUMENT_DEPTH } from "../../server/guard.ts";
import type { ServerManifest } from "../../server/manifest.ts";
import { createServer } from "../../server/mcp-gen-server.ts";
import { clientContext, EMPTY_CONTEXT } from "../context/source-context.ts";
import type { AgentTool, ToolSource } from "./agent-tool.ts";
import {
  convertedDialects,
  type GeneratedNormalize,
  type GeneratedProviderTools,
  generatedDialects,
  offerOf,
} from "./dialects.ts";
import { localToolContext } from "./local-context.ts";

/** Options of `localTools()`. */
export interface LocalToolsOptions {
  /** The generated manifest (`generated/<server>/server.ts`). */
  manifest: ServerManifest;
  /** Namespace of the tools; default: the manifest's server name. */
  name?: string;
  /** The generated `providerTools` (`generated/<server>/providers/index.ts`); converted at run time when absent. */
  providers?: GeneratedProviderTools;
  /** The generated `normalizeArguments` (`generated/<server>/normalize.ts`). */
  normalize?: GeneratedNormalize;
}

const LIMITS = { maxDepth: DEFAULT_MAX_ARGUMENT_DEPTH };

/**
 * The tools of a generated manifest, run in this process (no subprocess, no transport) exactly
 * as `serve()` runs them: arguments checked before the implementation is touched, thrown
 * errors and timeouts as `isError` results, a `ToolContext` for tools that declare one. Its
 * resources and prompts are served by the runtime's server over an in-memory transport, opened
 * when the agent first asks for them.
 *
 * @example
 * import { manifest } from "../generated/smart-home/server.ts";
 * import { providerTools } from "../generated/smart-home/providers/index.ts";
 * const agent = createAgent({ model, tools: [localTools({ manifest, providers: providerTools })] });
 */
export function localTools(options: LocalToolsOptions | ServerManifest): ToolSource {
  const { manifest, name, providers, normalize } = "manifest" in options ? options : { manifest: options };
  const sourceName = name ?? manifest.server;
  let served: Promise<Connection> | undefined;
  const hasContext =
    (manifest.resources?.length ?? 0) +
      (manifest.resourceTemplates?.length ?? 0) +
      (manifest.prompts?.length ?? 0) >
    0;
  return {
    name: sourceName,
    async context() {
      if (!hasContext) return EMPTY_CONTEXT;
      if (!served) {
        served = connectInMemory(createServer(manifest, { onError: () => {} }));
        served.catch(() => {
          served = undefined;
        });
      }
      return clientContext((await served).client);
    },
    async close() {
      const connection = served;
      served = undefined;
      await (await connection?.catch(() => undefined))?.close();
    },
    async load() {
      const dialects = generatedDialects({
        fallback: convertedDialects(
          sourceName,
          manifest.tools.map((t) => t.definition),
        ),
        providers,
        normalize,
      });
      const tools = manifest.tools.map(
        (tool): AgentTool => ({
          name: tool.definition.name,
          definition: tool.definition,
          input: tool.input,
          ...(tool.output ? { output: tool.output } : {}),
          resultWrapped: tool.resultWrapped,
          offer: (dialect) => offerOf(dialects, dialect, tool.definition.name),
          normalize: (dialect, args) => dialects.normalize(dialect, tool.definition.name, args),
          execute: (args, execution) =>
            callTool(tool, args, {
              limits: LIMITS,
              maskErrors: false,
              timeoutMs: execution.timeoutMs,
              requestSignal: execution.signal,
              context: (signal) => localToolContext({ toolName: tool.definition.name, execution, signal }),
              report: (event) => {
                if (event.kind === "invalid-result")
                  execution.notify({
                    kind: "warning",
                    message: `tool "${event.tool}" returned a result that breaks its output schema: ${event.message}`,
                  });
              },
            }),
        }),
      );
      return { tools, warnings: [] };
    },
  };
}
