import { callTool } from "../../server/call-tool.ts";
import type { ServerManifest } from "../../server/manifest.ts";
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

const LIMITS = { maxDepth: 64 };

/**
 * The tools of a generated manifest, run in this process (no subprocess, no transport) exactly
 * as `serve()` runs them: arguments checked before the implementation is touched, thrown
 * errors and timeouts as `isError` results, a `ToolContext` for tools that declare one.
 *
 * @example
 * import { manifest } from "../generated/smart-home/server.ts";
 * import { providerTools } from "../generated/smart-home/providers/index.ts";
 * const agent = createAgent({ model, tools: [localTools({ manifest, providers: providerTools })] });
 */
export function localTools(options: LocalToolsOptions | ServerManifest): ToolSource {
  const { manifest, name, providers, normalize } = "manifest" in options ? options : { manifest: options };
  const sourceName = name ?? manifest.server;
  return {
    name: sourceName,
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
