import type {
  CallToolResult,
  Client,
  ClientCapabilities,
  CreateMessageRequestParams,
  ElicitRequestFormParams,
} from "@modelcontextprotocol/client";
import type { LogLevel, ToolContext, UrlElicitation } from "../../context.ts";
import { TASKS_EXTENSION } from "../../tasks-extension.ts";
import { ToolError } from "../../tool-error.ts";
import { innerToolContext } from "./inner-context.ts";
import { checkOutput, type OutputCheck } from "./output-check.ts";
import { SentUrls, URL_ELICITATION_REQUIRED, urlAble, urlRequired } from "./url-elicitation.ts";

/**
 * What a client declares to an upstream server whose questions it relays: form and URL
 * elicitation, sampling and roots. Whether the client behind a run can answer is checked per question.
 */
export const RELAY_CAPABILITIES: ClientCapabilities = {
  elicitation: { form: {}, url: {} },
  sampling: {},
  roots: {},
};

/** One `tools/call` through a relay. */
export interface RelayedCall {
  name: string;
  args: Record<string, unknown>;
  signal: AbortSignal;
  /** The context of the call that runs the program; without it, the server's questions are refused. */
  context?: ToolContext;
  /** The run's progress count (see `innerToolContext`). */
  progress?: { count: number };
  /** The tool's listed output schema: its structured result is checked as the SDK's `callTool` checks it. */
  outputSchema?: unknown;
  /**
   * The tool runs only as a task (`execution.taskSupport: "required"` in a 2025 server's listing):
   * it is called as one. A 2026-07-28 server says so by refusing the plain call.
   */
  taskOnly?: boolean;
}

/** Calls an upstream server's tools and hands what the server asks meanwhile to the run's client. */
export interface UpstreamRelay {
  call(call: RelayedCall): Promise<CallToolResult>;
}

const MAX_ROUNDS = 10;
const MISSING_CAPABILITY = -32021;
const LOG_LEVEL_META_KEY = "io.modelcontextprotocol/logLevel";

/**
 * A relay over a client connected with `RELAY_CAPABILITIES`: the upstream server's elicitation,
 * sampling and roots requests made while it serves a call from a program go to the client that
 * sent the program (through the code tool's context, in that client's era and with its
 * capabilities checked); its progress becomes the code tool's progress, its log messages reach
 * that client under `name`. A 2026-07-28 server's `input_required` rounds belong to their call;
 * a 2025 server's requests carry no call (stdio has no way to say), so they go to the one run
 * with calls in flight, and are refused while calls of several runs are. URL-mode elicitation
 * needs a client that declares it (a 2025 server's `-32042` shows its URLs to that client). A tool
 * that runs only as a task (`taskOnly`; on 2026-07-28, a call refused for want of the tasks
 * extension) is called as a task and followed to its result; cancelling the run cancels the task.
 *
 * @example
 * const { client } = await connectStdio(params, { clientOptions: { capabilities: RELAY_CAPABILITIES } });
 * const memory = bindClientTools({ client, tools, relay: relayUpstream({ client, name: "memory" }) });
 */
export function relayUpstream(options: { client: Client; name: string }): UpstreamRelay {
  const { client, name } = options;
  // calls in flight, by run (the context of the call that runs the program; a call without one is a run of its own)
  const active = new Map<object, { run: object; inner: ToolContext | undefined }>();
  // the SDK's validator, loaded for the first 2026-07-28 result to check
  let outputs: Promise<OutputCheck> | undefined;
  const validators = () =>
    (outputs ??= import("@modelcontextprotocol/client/validators/ajv").then((m) => ({
      provider: new m.AjvJsonSchemaValidator(),
      byTool: new Map(),
    })));
  const sole = (): ToolContext | undefined | null => {
    const runs = new Set([...active.values()].map((a) => a.run));
    return runs.size === 1 ? [...active.values()][0]!.inner : null;
  };
  const only = (what: Capability): ToolContext => {
    const inner = sole();
    if (inner) return able(inner, what);
    const runs = new Set([...active.values()].map((a) => a.run)).size;
    throw new ToolError(
      inner === undefined
        ? `${name} asked for ${what}, and the program that called it has no client to ask.`
        : runs === 0
          ? `${name} asked for ${what} outside of any call from a program; nothing to ask.`
          : `${name} asked for ${what} while calls of ${runs} programs are in flight; a 2025 server does not say which call asks, so it is refused (a 2026-07-28 server's questions are relayed).`,
    );
  };
  // the runs whose client was sent a 2025 server's URL elicitations, by id: its completion goes there
  const sentTo = new SentUrls();
  client.setRequestHandler("elicitation/create", (request) =>
    elicit(only("elicitation"), request.params, sentTo),
  );
  client.setNotificationHandler("notifications/elicitation/complete", async ({ params }) => {
    await sentTo
      .take(params.elicitationId)
      ?.elicitationComplete(params.elicitationId)
      .catch(() => {});
  });
  client.setRequestHandler(
    "sampling/createMessage",
    (request) => only("sampling").sample(request.params as CreateMessageRequestParams) as never,
  );
  // a server may list roots as soon as it starts (server-everything does): no program, no roots
  client.setRequestHandler("roots/list", async () => ({
    roots: active.size === 0 ? [] : await only("roots").roots(),
  }));
  client.setNotificationHandler("notifications/message", async ({ params }) => {
    // a message of no call, of calls of several runs, or of a run without a client: no one to tell
    await sole()
      ?.log(params.level as LogLevel, params.data, params.logger ?? name)
      .catch(() => {});
  });

  return {
    async call(call) {
      const { context } = call;
      const key = {};
      const inner = context
        ? innerToolContext({
            outer: context,
            toolName: `${name}.${call.name}`,
            signal: call.signal,
            progress: call.progress ?? { count: 0 },
          })
        : undefined;
      active.set(key, { run: context ?? key, inner });
      const onprogress = inner
        ? (p: { progress: number; total?: number; message?: string }) =>
            void inner.progress(p.progress, p.total, p.message).catch(() => {})
        : undefined;
      try {
        const asTask = async () =>
          (await import("./upstream-task.ts")).callAsTask({
            client,
            label: `${name}.${call.name}`,
            name: call.name,
            args: call.args,
            signal: call.signal,
            ask: (request) => answer(inner, call.name, request),
            ...(onprogress ? { onprogress } : {}),
          });
        const modern = client.getProtocolEra() === "modern";
        if (!modern && !call.taskOnly)
          return (await client.callTool(
            { name: call.name, arguments: call.args },
            { signal: call.signal, ...(onprogress ? { onprogress } : {}) },
          )) as CallToolResult;
        // the SDK's callTool checks the output of its own calls; these are checked here
        const result = !modern
          ? await asTask()
          : await callInRounds({ client, call, inner, ...(onprogress ? { onprogress } : {}) }).catch(
              async (error: unknown) => {
                // a tool that runs only as a task: called again with the tasks extension, and followed
                if (!needsTasks(error)) throw error;
                return asTask();
              },
            );
        if (call.outputSchema !== undefined && !result.isError) checkOutput(await validators(), call, result);
        return result;
      } catch (error) {
        if ((error as { code?: unknown }).code === URL_ELICITATION_REQUIRED)
          return await urlRequired({ inner, tool: `${name}.${call.name}`, error, sentTo });
        throw error;
      } finally {
        active.delete(key);
      }
    },
  };
}

/** A 2026-07-28 `tools/call`, its `input_required` rounds answered by the run's client. */
async function callInRounds(input: {
  client: Client;
  call: RelayedCall;
  inner: ToolContext | undefined;
  onprogress?: (p: { progress: number; total?: number; message?: string }) => void;
}): Promise<CallToolResult> {
  const { client, call, inner } = input;
  let extra: { inputResponses?: Record<string, unknown>; requestState?: string } = {};
  for (let round = 0; ; round++) {
    const result = (await client.request(
      {
        method: "tools/call",
        params: {
          name: call.name,
          arguments: call.args,
          ...extra,
          // the client that sent the program filters by its own level
          ...(inner ? { _meta: { [LOG_LEVEL_META_KEY]: "debug" } } : {}),
        },
      },
      {
        signal: call.signal,
        allowInputRequired: true,
        ...(input.onprogress ? { onprogress: input.onprogress } : {}),
      },
    )) as
      | CallToolResult
      | { resultType: "input_required"; inputRequests?: Record<string, unknown>; requestState?: string };
    if ((result as { resultType?: string }).resultType !== "input_required") return result as CallToolResult;
    if (round >= MAX_ROUNDS)
      throw new ToolError(`${call.name} still asked for input after ${MAX_ROUNDS} rounds; gave up.`);
    const asked = result as { inputRequests?: Record<string, unknown>; requestState?: string };
    const entries = Object.entries(asked.inputRequests ?? {});
    const answers = await Promise.all(
      entries.map(async ([key, request]) => [key, await answer(inner, call.name, request)] as const),
    );
    extra = {
      ...(answers.length > 0 ? { inputResponses: Object.fromEntries(answers) } : {}),
      ...(asked.requestState !== undefined ? { requestState: asked.requestState } : {}),
    };
  }
}

/**
 * Whether a 2026-07-28 server refused a call for want of the tasks extension (`-32021`): the tool
 * runs only as a task. Calls declare the extension only then, so a server never answers a call it
 * can serve plainly with a task (its progress and log messages reach the program's client).
 */
function needsTasks(error: unknown): boolean {
  const { code, data } = error as {
    code?: unknown;
    data?: { requiredCapabilities?: { extensions?: Record<string, unknown> } };
  };
  return (
    code === MISSING_CAPABILITY && data?.requiredCapabilities?.extensions?.[TASKS_EXTENSION] !== undefined
  );
}

/** One embedded request of an `input_required` round, asked of the run's client. */
async function answer(inner: ToolContext | undefined, tool: string, request: unknown): Promise<unknown> {
  const { method, params } = (request ?? {}) as { method?: string; params?: Record<string, unknown> };
  if (!inner)
    throw new ToolError(`${tool} asked for ${method ?? "input"}, and this run has no client to ask.`);
  if (method === "elicitation/create") return elicit(able(inner, "elicitation"), params ?? {});
  if (method === "sampling/createMessage")
    return able(inner, "sampling").sample(params as unknown as CreateMessageRequestParams);
  if (method === "roots/list") return { roots: await able(inner, "roots").roots() };
  throw new ToolError(
    `${tool} asked for "${method}", which is not relayed (elicitation, sampling, roots are).`,
  );
}

type Capability = "elicitation" | "sampling" | "roots";

/** The context, when the client that sent the program can answer a question of this kind. */
function able(inner: ToolContext, capability: Capability): ToolContext {
  if (inner.client.capabilities?.[capability]) return inner;
  throw new ToolError(
    `${inner.toolName} asked for ${capability}, which the client that sent the program does not support; it was refused.`,
  );
}

function elicit(inner: ToolContext, params: Record<string, unknown>, sentTo?: SentUrls) {
  const { mode, ...form } = params;
  if (mode === "url") {
    const url = urlAble(inner, params) as unknown as UrlElicitation;
    if (url.elicitationId !== undefined) sentTo?.add(url.elicitationId, inner);
    return inner.elicit(url);
  }
  if (mode !== undefined && mode !== "form")
    throw new ToolError(
      `${inner.toolName} asked for ${String(mode)} elicitation; form and URL elicitation are relayed.`,
    );
  return inner.elicit(form as unknown as Omit<ElicitRequestFormParams, "mode">);
}
