import type { ServerManifest } from "../server/manifest.ts";
import type { AgentEvent, AgentResult } from "./events.ts";
import { type ExtractOptions, extractWith } from "./extract.ts";
import { type LoopConfig, runLoop } from "./loop.ts";
import type { AgentMessage } from "./messages.ts";
import type { ModelProvider } from "./model/model.ts";
import type { AskPolicy, CanUseTool } from "./permission.ts";
import { type SubmitTool, submitAgentTool } from "./submit.ts";
import type { LoadedTools, ToolSource } from "./tools/agent-tool.ts";
import { type LocalToolsOptions, localTools } from "./tools/local-source.ts";
import { loadToolset, type OfferedTool, type Toolset } from "./tools/toolset.ts";

/** A tool source, or a generated manifest (run in-process), or `localTools()` options. */
export type ToolSourceInput = ToolSource | ServerManifest | LocalToolsOptions;

/** Options of `createAgent()`. */
export interface AgentOptions {
  model: ModelProvider;
  /** Where the tools come from; sources are loaded (MCP servers listed) on the first run. */
  tools?: readonly ToolSourceInput[];
  system?: string;
  /** Model requests per run. Default 20. */
  maxSteps?: number;
  /** Invalid calls of one tool in a row that are answered with feedback before the run stops. Default 2. */
  maxRetries?: number;
  /** Time limit of a tool call in milliseconds. Default 60 000. */
  timeoutMs?: number;
  /** Time limits of single tools, by the name the model sees. */
  toolTimeoutsMs?: Readonly<Record<string, number>>;
  /** Asked before tools run (by default: destructive ones); without it those calls are denied. */
  canUseTool?: CanUseTool;
  /** Which calls ask `canUseTool`. Default `destructive`. */
  askPermission?: AskPolicy;
  /** Offer one `mcp_query {resource, operation, params}` tool instead of every tool (seed 002). */
  router?: boolean | { name?: string };
  /** `auto` (default): names are `<source>__<tool>` when there is more than one source. */
  namespace?: "auto" | "always" | "never";
  /** Stream assistant text as `text-delta` events. Default `false`. */
  stream?: boolean;
}

/** Options of one run. */
export interface RunOptions {
  /** Cancels the run: model requests and running tools are aborted, the run throws the reason. */
  signal?: AbortSignal;
  /** Earlier messages (`result.messages` of a previous run) to continue a conversation. */
  history?: readonly AgentMessage[];
}

/** A configured agent. */
export interface Agent {
  /** Runs the loop for one user message as a stream of events; the last is `final`. */
  run(prompt: string, options?: RunOptions): AsyncGenerator<AgentEvent, AgentResult>;
  /** Runs the loop and returns the result (`result.text` is the answer). */
  chat(prompt: string, options?: RunOptions): Promise<AgentResult>;
  /** Makes the model deliver a value through a submit tool; returns it validated and typed. */
  extract<T>(prompt: string, submit: SubmitTool<T>, options?: ExtractOptions): Promise<T>;
  /** The tools as offered to this agent's model (loads the sources). */
  tools(): Promise<readonly OfferedTool[]>;
  /** Closes the sources the agent opened (child processes, HTTP sessions). */
  close(): Promise<void>;
}

/**
 * Creates an agent: the tool-use loop of the seeds over generated artifacts, with validation
 * feedback instead of bad executions.
 *
 * @example
 * import { manifest } from "../generated/smart-home/server.ts";
 * const agent = createAgent({
 *   model: anthropicModel({ model: "claude-sonnet-5-5" }),
 *   tools: [manifest],
 *   canUseTool: async (name, args) => ((await ask(name, args)) ? { behavior: "allow" } : { behavior: "deny", reason: "the user said no" }),
 * });
 * const { text } = await agent.chat("打开客厅的灯");
 */
export function createAgent(options: AgentOptions): Agent {
  const sources = (options.tools ?? []).map(toSource).map(loadOnce);
  const toolsets = new Map<string, Promise<Toolset>>();
  const toolset = (extra?: SubmitTool<unknown>): Promise<Toolset> => {
    const key = extra?.definition.name ?? "";
    let found = toolsets.get(key);
    if (!found) {
      found = loadToolset(sources, {
        dialect: options.model.dialect,
        ...(options.namespace ? { namespace: options.namespace } : {}),
        ...(options.router !== undefined ? { router: options.router } : {}),
        ...(extra ? { extra: [submitOffer(extra)] } : {}),
      });
      found.catch(() => toolsets.delete(key));
      toolsets.set(key, found);
    }
    return found;
  };
  const config = (set: Toolset): LoopConfig => ({
    model: options.model,
    toolset: set,
    system: options.system,
    maxSteps: options.maxSteps ?? 20,
    maxRetries: options.maxRetries ?? 2,
    timeoutMs: options.timeoutMs ?? 60_000,
    toolTimeoutsMs: options.toolTimeoutsMs ?? {},
    canUseTool: options.canUseTool,
    ask: options.askPermission ?? "destructive",
    stream: options.stream ?? false,
  });
  async function* run(prompt: string, runOptions: RunOptions = {}): AsyncGenerator<AgentEvent, AgentResult> {
    const outcome = yield* runLoop(config(await toolset()), { prompt, ...runOptions });
    return outcome.result;
  }
  return {
    run,
    async chat(prompt, runOptions) {
      const events = run(prompt, runOptions);
      for (;;) {
        const next = await events.next();
        if (next.done) return next.value;
      }
    },
    async extract(prompt, submit, extractOptions = {}) {
      const set = await toolset(submit as SubmitTool<unknown>);
      return extractWith(config(set), submit, prompt, extractOptions);
    },
    async tools() {
      return (await toolset()).tools;
    },
    async close() {
      await Promise.all(sources.map((s) => s.close?.()));
    },
  };
}

function toSource(input: ToolSourceInput): ToolSource {
  if ("load" in input && typeof input.load === "function") return input;
  return localTools(input as ServerManifest | LocalToolsOptions);
}

/** Sources are listed once per agent, however many toolsets (runs, extracts) use them. */
function loadOnce(source: ToolSource): ToolSource {
  let loaded: Promise<LoadedTools> | undefined;
  return {
    name: source.name,
    load: () => {
      loaded ??= source.load();
      loaded.catch(() => {
        loaded = undefined;
      });
      return loaded;
    },
    ...(source.close ? { close: () => source.close!() } : {}),
  };
}

function submitOffer(submit: SubmitTool<unknown>) {
  return { source: "submit", tool: submitAgentTool(submit), annotations: {}, terminal: true };
}
