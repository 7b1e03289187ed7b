import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
  Implementation,
  Root,
} from "@modelcontextprotocol/server";

/**
 * The tool context: a parameter of this type gives a tool access to the request it
 * serves. It is never part of the input schema; the server passes it positionally.
 *
 * @example
 * import type { Int, ToolContext } from "@mcp-gen/runtime";
 * export async function slow_job(steps: Int, ctx: ToolContext): Promise<string> {
 *   for (let i = 0; i < steps; i++) {
 *     ctx.signal.throwIfAborted();
 *     await ctx.progress(i + 1, steps);
 *   }
 *   await ctx.log("info", `finished ${steps} steps`);
 *   return "done";
 * }
 */
export interface ToolContext {
  /** Name of the tool being called (of the resource being read, or of the prompt being got: see `kind`). */
  readonly toolName: string;
  /**
   * What the implementation serves: a tool call, a resource read (`resources/read`, of a static
   * resource or a template) or a prompt (`prompts/get`).
   */
  readonly kind: "tool" | "resource" | "prompt";
  /** The URI being read, for resources; `undefined` otherwise. */
  readonly uri: string | undefined;
  /**
   * The protocol era of the client: `"modern"` (MCP 2026-07-28, self-contained requests) or
   * `"legacy"` (the 2025 revisions, with `initialize` and sessions); `undefined` when no
   * protocol is involved (a tool the agent runs in process).
   */
  readonly era: "modern" | "legacy" | undefined;
  /** The protocol revision the client speaks (`"2026-07-28"`, `"2025-11-25"` …), when known. */
  readonly protocolVersion: string | undefined;
  /** JSON-RPC id of the `tools/call` request (the first request of the call, on 2026-07-28). */
  readonly requestId: string | number;
  /** Session of the caller (2025 clients on Streamable HTTP with sessions); `undefined` elsewhere. */
  readonly sessionId: string | undefined;
  /**
   * Who calls, when the server checks access tokens (HTTP with `auth`): the subject, client id,
   * scopes and claims of the caller's token, in both protocol eras. `undefined` without
   * authorization (stdio, HTTP without `auth` or with the static `token`).
   */
  readonly auth: AuthPrincipal | undefined;
  /** The client's name and version, and what it supports (sampling, elicitation …), once initialized. */
  readonly client: {
    readonly info: Implementation | undefined;
    readonly capabilities: ClientCapabilities | undefined;
  };
  /**
   * Aborted when the client cancels the request (`notifications/cancelled`) or the tool's
   * timeout elapses; `signal.reason` tells which. Pass it on to `fetch` and friends.
   */
  readonly signal: AbortSignal;
  /**
   * Reports progress (`notifications/progress`); a no-op when the caller sent no
   * `_meta.progressToken`. `progress` should increase with every call.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends a log message to the client (`notifications/message`); messages below the level
   * the client asked for are dropped: the level a 2025 client set with `logging/setLevel`, or
   * the level a 2026-07-28 request carries (a request without one receives none). Deprecated by
   * the 2026-07-28 revision (SEP-2577), which points servers at stderr or OpenTelemetry.
   */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Asks the client's model for a completion (`sampling/createMessage`). Rejects with a
   * `ToolError` when the client does not support sampling. Deprecated by the 2026-07-28
   * revision (SEP-2577) but still served: a 2025 client gets a server-to-client request, a
   * 2026-07-28 client an `input_required` round, and the call resumes with the answer.
   */
  sample(request: CreateMessageRequestParams, options?: InputOptions): Promise<CreateMessageResult>;
  /**
   * Asks the user for input through the client (`elicitation/create`): a form, or with
   * `mode: "url"` a URL to open (where the user goes through a flow that must not pass through
   * the client, such as a sign-in; `accept` means the user agreed to open it). Rejects with a
   * `ToolError` when the client does not support elicitation (for a URL: `elicitation.url`). A
   * 2025 client gets a server-to-client request (a URL with an `elicitationId`, made up when
   * absent); a 2026-07-28 client gets an `input_required` result and calls again with the
   * answer, and the same execution of the tool resumes here.
   */
  elicit(
    request: Omit<ElicitRequestFormParams, "mode"> | UrlElicitation,
    options?: InputOptions,
  ): Promise<ElicitResult>;
  /**
   * Tells the client that the user finished what a URL-mode elicitation sent them to do
   * (`notifications/elicitation/complete` with its `elicitationId`), so it may retry or go on. Only
   * 2025 clients that declare `elicitation.url` have it; a no-op elsewhere (the 2026-07-28 revision
   * removed it: the client's retry of the call carries the answer), resolving at once.
   */
  elicitationComplete(elicitationId: string): Promise<void>;
  /**
   * The client's roots (`roots/list`): the folders or files it lets the server work on. Rejects
   * with a `ToolError` when the client does not support roots. A 2025 client gets a
   * server-to-client request, a 2026-07-28 client an `input_required` round. Deprecated by the
   * 2026-07-28 revision (SEP-2577) but still served.
   */
  roots(options?: InputOptions): Promise<Root[]>;
  /**
   * Turns the running call into an MCP task at this point, for a tool tagged `@task deferred`
   * (or `@task required deferred`): the `tools/call` of a 2026-07-28 client that supports tasks
   * answers with the task now (`resultType: "task"`), and the tool goes on as that task — what it
   * asks from then on goes through the task (`tasks/get`, `tasks/update`), its result becomes the
   * task's. Before this point the call is a plain call: its questions are `input_required` rounds.
   *
   * A no-op elsewhere, resolving at once: the call already is a task (a tool without `deferred`,
   * a second call), a 2025 client (which asks for a task up front, with `task` in `tools/call`),
   * a client without the tasks extension, a call in process.
   *
   * @example
   * // JSDoc of the tool: @task required deferred
   * export async function greet_later(ctx: ToolContext): Promise<ToolResult> {
   *   const reply = await ctx.elicit({ message: "Name?", requestedSchema: form }); // input_required
   *   await ctx.becomeTask(); // the tools/call answers with the task from here
   *   await longWork(ctx.signal);
   *   return text(`Hello, ${reply.content?.name}!`); // the task's result
   * }
   */
  becomeTask(): Promise<void>;
  /**
   * Streamable HTTP only: closes the response stream of this request now, so the client
   * reconnects and receives the result later (SEP-1699 polling). A no-op elsewhere.
   */
  closeStream(): void;
  /**
   * Tells the clients that subscribed to a resource that it changed
   * (`notifications/resources/updated`): 2025 clients that sent `resources/subscribe` for this
   * URI, 2026-07-28 clients listening for it through `subscriptions/listen`. Every connection of
   * the server is told, not only the caller's. A no-op in process (the agent).
   */
  notifyResourceUpdated(uri: string): void;
}

/** The caller an access token names (`ToolContext.auth`); the token itself never reaches tools. */
export interface AuthPrincipal {
  /** `sub`: the user, or for the client-credentials grant usually the client. */
  readonly subject: string | undefined;
  /** `client_id` (or `azp`): the OAuth client that got the token. */
  readonly clientId: string;
  /** The scopes the token grants. */
  readonly scopes: readonly string[];
  /** Every claim of the token (a JWT's payload, or the introspection response). */
  readonly claims: Readonly<Record<string, unknown>>;
  /** `exp`, in seconds since the epoch. */
  readonly expiresAt?: number;
}

/** A URL-mode elicitation (`ToolContext.elicit`): the user is asked to open `url`. */
export interface UrlElicitation {
  mode: "url";
  /** Why the user should open the URL. */
  message: string;
  url: string;
  /** The 2025 revisions' id of the elicitation (made up when absent; 2026-07-28 has none). */
  elicitationId?: string;
}

/** How a question a tool asks (`elicit`, `sample`, `roots`) is sent. */
export interface InputOptions {
  /**
   * The key of the question in a 2026-07-28 `input_required` result (`inputRequests`), which the
   * client answers under (default `elicit-1`, `sample-2` …, numbered per call). Unused for 2025 clients.
   */
  key?: string;
}

export type LogLevel = "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";

/** Log levels from least to most severe, as `logging/setLevel` orders them. */
export const LOG_LEVELS: readonly LogLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];
