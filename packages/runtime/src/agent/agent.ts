import type { ServerManifest } from "../server/manifest.ts";
import {
  type ContextCatalog,
  type ListedResource,
  type ListedResourceTemplate,
  loadContextCatalog,
  type OfferedPrompt,
} from "./context/catalog.ts";
import { IMAGE_TYPES } from "./context/resource-content.ts";
import { promptAsMessages, readAsMessage } from "./context/use.ts";
import type { AgentEvent, AgentResult } from "./events.ts";
import { type ExtractOptions, extractWith } from "./extract.ts";
import { type LoopConfig, runLoop } from "./loop.ts";
import type { AgentMessage, UserContent, UserMessage } from "./messages.ts";
import type { ModelProvider } from "./model/model.ts";
import type { AskPolicy, CanUseTool } from "./permission.ts";
import { type SubmitTool, submitAgentTool } from "./submit.ts";
import type { LoadedTools, ToolSource } from "./tools/agent-tool.ts";
import type { CodeToolOptions } from "./tools/code-tool.ts";
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
  /**
   * Code mode: offer one `run_program` tool whose description declares every tool as a typed
   * function; the model's program is type-checked, then run in a sandbox (see
   * `@mcp-gen/runtime/code`). Destructive calls inside it ask `canUseTool`. Needs a TypeScript
   * compiler with a JavaScript API (`typescript` 5.x/6.x, or pass `typescript`).
   */
  code?: boolean | CodeToolOptions;
  /** `auto` (default): names are `<source>__<tool>` when there is more than one source. */
  namespace?: "auto" | "always" | "never";
  /** Stream assistant text as `text-delta` events. Default `false`. */
  stream?: boolean;
}

/**
 * What a run sends: a user message's text, or messages (a prompt's from `usePrompt()`, a
 * resource's from `attachResource()`, your own), appended to the history as they are.
 */
export type AgentInput = string | readonly AgentMessage[];

/** Options of one run. */
export interface AgentRunOptions {
  /** Cancels the run: model requests and running tools are aborted, the run throws the reason. */
  signal?: AbortSignal;
  /** Earlier messages (`result.messages` of a previous run) to continue a conversation. */
  history?: readonly AgentMessage[];
  /**
   * URIs of resources to read (through the source that lists them) and put before the input,
   * in its user turn, as context blocks. Read before the first model request; an unknown URI
   * or a failed read rejects the run with an `AgentError` and nothing is sent.
   */
  resources?: readonly string[];
}

/** Options of `attachResource()` and `usePrompt()`. */
export interface ContextOptions {
  signal?: AbortSignal;
}

/** A configured agent. */
export interface Agent {
  /** Runs the loop for one user message (or messages) as a stream of events; the last is `final`. */
  run(input: AgentInput, options?: AgentRunOptions): AsyncGenerator<AgentEvent, AgentResult>;
  /** Runs the loop and returns the result (`result.text` is the answer). */
  chat(input: AgentInput, options?: AgentRunOptions): Promise<AgentResult>;
  /** Makes the model deliver a value through a submit tool; returns it validated and typed. */
  extract<T>(input: AgentInput, submit: SubmitTool<T>, options?: ExtractOptions): Promise<T>;
  /** The tools as offered to this agent's model (loads the sources). */
  tools(): Promise<readonly OfferedTool[]>;
  /** The resources and resource templates of every source (MCP servers, manifests), with their source. */
  resources(): Promise<{
    resources: readonly ListedResource[];
    resourceTemplates: readonly ListedResourceTemplate[];
  }>;
  /** The prompts of every source, named as tools are (`<source>__<prompt>` with several sources). */
  prompts(): Promise<readonly OfferedPrompt[]>;
  /**
   * Reads a resource through the source that lists it (or has a template matching the URI) and
   * returns it as a user message of context blocks naming the URI and MIME type: text and JSON
   * as text, an image the model takes (`ModelProvider.imageTypes`) as an image. Another blob is
   * an `AgentError` (`unsupported-content`), an unknown URI one that lists what exists.
   *
   * @example
   * const readme = await agent.attachResource("docs://readme");
   * const { text } = await agent.chat("Summarize the readme.", { history: [readme] });
   */
  attachResource(uri: string, options?: ContextOptions): Promise<UserMessage>;
  /**
   * Gets a prompt (by the name `prompts()` lists) with its arguments and returns its messages as
   * conversation messages: run them to start from the prompt, or put them into `history`.
   *
   * @example
   * const messages = await agent.usePrompt("review_code", { code: "let x = 1" });
   * const { text } = await agent.chat(messages);
   */
  usePrompt(
    name: string,
    args?: Readonly<Record<string, string>>,
    options?: ContextOptions,
  ): Promise<AgentMessage[]>;
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
 *
 * @example
 * // Resources and prompts of the sources: read into the turn, or start from a prompt.
 * await agent.chat("Which rules apply?", { resources: ["home://rules"] });
 * await agent.chat(await agent.usePrompt("evening_routine", { room: "客厅" }));
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
        ...(options.code
          ? {
              code: {
                ...(options.code === true ? {} : options.code),
                canUseTool: options.canUseTool,
                ask: options.askPermission ?? "destructive",
              },
            }
          : {}),
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
  let catalog: Promise<ContextCatalog> | undefined;
  const context = (): Promise<ContextCatalog> => {
    if (!catalog) {
      catalog = loadContextCatalog(sources, options.namespace ? { namespace: options.namespace } : {});
      catalog.catch(() => {
        catalog = undefined;
      });
    }
    return catalog;
  };
  const imageTypes = options.model.imageTypes ?? IMAGE_TYPES;
  const attachResource = async (uri: string, contextOptions: ContextOptions = {}) =>
    readAsMessage(await context(), uri, { imageTypes, signal: contextOptions.signal });
  /** The messages of a turn: the input, after the resources it attaches. */
  const turn = async (input: AgentInput, runOptions: AgentRunOptions): Promise<AgentMessage[]> => {
    const attached: UserContent[] = [];
    for (const uri of runOptions.resources ?? [])
      attached.push(...((await attachResource(uri, runOptions)).content as UserContent[]));
    if (typeof input === "string")
      return [
        { role: "user", content: attached.length > 0 ? [...attached, { type: "text", text: input }] : input },
      ];
    return attached.length > 0 ? [{ role: "user", content: attached }, ...input] : [...input];
  };
  async function* run(
    input: AgentInput,
    runOptions: AgentRunOptions = {},
  ): AsyncGenerator<AgentEvent, AgentResult> {
    const { resources: _resources, ...loopOptions } = runOptions;
    const messages = await turn(input, runOptions);
    const outcome = yield* runLoop(config(await toolset()), { messages, ...loopOptions });
    return outcome.result;
  }
  return {
    run,
    async chat(input, runOptions) {
      const events = run(input, runOptions);
      for (;;) {
        const next = await events.next();
        if (next.done) return next.value;
      }
    },
    async extract(input, submit, extractOptions = {}) {
      const set = await toolset(submit as SubmitTool<unknown>);
      return extractWith(config(set), submit, await turn(input, {}), extractOptions);
    },
    async tools() {
      return (await toolset()).tools;
    },
    async resources() {
      const { resources, resourceTemplates } = await context();
      return { resources, resourceTemplates };
    },
    async prompts() {
      return (await context()).prompts;
    },
    attachResource,
    async usePrompt(name, args = {}, contextOptions = {}) {
      return promptAsMessages(await context(), name, args, { imageTypes, signal: contextOptions.signal });
    },
    async close() {
      const loaded = [...toolsets.values()];
      toolsets.clear();
      await Promise.all(loaded.map(async (set) => (await set.catch(() => undefined))?.close()));
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
    ...(source.context ? { context: () => source.context!() } : {}),
  };
}

function submitOffer(submit: SubmitTool<unknown>) {
  return { source: "submit", tool: submitAgentTool(submit), annotations: {}, terminal: true };
}
