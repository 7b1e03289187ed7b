import type { CallRecord } from "./call-log.ts";
import type { SharedContinuations } from "./input/sealed-rounds.ts";
import type { ServerTaskOptions } from "./tasks.ts";

/** Something the server reports instead of sending it to the client. */
export type McpGenServerEvent =
  | {
      /** A tool threw; with `masked`, the client only saw a generic message. */
      kind: "tool-error";
      /** The tool's name (or the resource's, prompt's: see `source`). */
      tool: string;
      /** Set when it was not a tool: a resource read, a prompt, a completion. */
      source?: "resource" | "prompt" | "completion";
      error: unknown;
      masked: boolean;
    }
  | {
      /** A tool returned a result that breaks its own output schema: a server bug. */
      kind: "invalid-result";
      /** The tool's name (or the resource's, prompt's: see `source`). */
      tool: string;
      /** Set when it was not a tool: a resource read, a prompt, a completion. */
      source?: "resource" | "prompt" | "completion";
      message: string;
      value: unknown;
    }
  | {
      /** The protocol layer or a transport failed (malformed frames, closed pipes …). */
      kind: "protocol";
      error: Error;
    };

/** How a server built from a manifest behaves, whatever its transport. */
export interface McpGenServerOptions {
  /** `serverInfo.version`; default: the manifest's version, else `"0.0.0"`. */
  version?: string;
  /** `instructions` sent in the `initialize` result. */
  instructions?: string;
  /**
   * Hide the messages of unexpected errors thrown by tools, resources, prompts and completions
   * (the client gets a generic message, the details go to `onError`). `ToolError` messages are
   * always sent.
   * Default `false`.
   */
  maskErrors?: boolean;
  /** Default time limit of a tool call in milliseconds; none by default. */
  timeoutMs?: number;
  /** Time limits of single tools in milliseconds, by tool name (override `timeoutMs`). */
  toolTimeoutsMs?: Readonly<Record<string, number>>;
  /** Deepest nesting accepted in tool arguments. Default 64. */
  maxArgumentDepth?: number;
  /**
   * How long a call from a 2026-07-28 client may wait for the user's answer to `ctx.elicit()`
   * or `ctx.sample()` (between its `input_required` result and the client's retry) before it
   * is aborted. Default 10 minutes.
   */
  inputTimeoutMs?: number;
  /** Most calls waiting for their clients' answers at once; a tool asking beyond it gets a `ToolError`. Default 1000. */
  maxWaitingCalls?: number;
  /**
   * How long 2026-07-28 clients may cache the lists (`tools/list`, `resources/list`,
   * `resources/templates/list`, `prompts/list`: `ttlMs`) and whether a shared cache may keep them
   * (`scope`, default `"private"`). Default: not cacheable (`ttlMs` 0). `resources/read` results
   * are never cacheable.
   */
  listCache?: { ttlMs: number; scope?: "public" | "private" };
  /**
   * The tool, resource and prompt lists may change while serving (`RunningServer.update(manifest)`):
   * advertised as `listChanged` of `tools`, `resources` and `prompts`, and every client is told
   * (2026-07-28 clients through `subscriptions/listen`, 2025 clients on their connection).
   * Default `false`.
   */
  listChanged?: boolean;
  /**
   * With an authenticated caller (HTTP with `auth`), `tools/list` shows only the tools whose
   * `scopes` its token has. Set by `serve()` from `http.auth.scopesOnList`. Default `false`.
   */
  filterToolsByScope?: boolean;
  /**
   * How tools tagged `@task` run as MCP tasks (2025-11-25 `tasks/*`, the 2026-07-28 tasks
   * extension): the task store (default in memory), default and longest `ttl`, poll interval.
   */
  tasks?: ServerTaskOptions;
  /**
   * Where `ctx.notifyResourceUpdated` goes instead of this server's own subscribers: with shared
   * state (`serve({ state })` sets it), the event bus, whose listener on every replica notifies
   * that replica's subscribers. Default: this server's subscribers.
   */
  publishResourceUpdated?: (uri: string) => void;
  /**
   * Where `update()` reports the lists that changed instead of this server's own clients: with
   * shared state (`serve({ state })` sets it), `publish` puts them on the event bus, and the bus
   * listener of every replica calls the `listen` callback of each of its servers, which tells that
   * server's clients (2026-07-28 listeners, 2025 sessions). Default: this server's clients.
   */
  sharedLists?: SharedLists;
  /**
   * Set by `serve({ state })`: 2026-07-28 `input_required` rounds of tools declared safe to run
   * again (`@readOnly`, `@idempotent`) travel sealed with the shared key, so their retry runs
   * on any replica; other calls wait on the replica that asked. Default: every call waits here.
   */
  sharedContinuations?: SharedContinuations;
  /**
   * Receives what the server logs: invalid results, errors thrown by tools (and by resources,
   * prompts and completions: `source`), protocol errors.
   * Default: one line on stderr for each (stdout belongs to the stdio transport).
   */
  onError?: (event: McpGenServerEvent) => void;
  /**
   * Receives a record of every served `tools/call`, `resources/read` and `prompts/get` once it
   * is answered: name, duration, outcome, era, principal, session (`jsonCallLog()` writes them as
   * JSON lines; `mcp-gen serve --log-format json`). Default: none.
   */
  onCall?: (record: CallRecord) => void;
  /** Put the arguments in the records of `onCall` (they may hold personal data). Default `false`. */
  logArguments?: boolean;
}

/** The default `onError`: a line on stderr; unmasked tool errors already reached the client. */
export function logToStderr(event: McpGenServerEvent): void {
  switch (event.kind) {
    case "invalid-result":
      process.stderr.write(
        `mcp-gen: ${event.source ?? "tool"} "${event.tool}" returned an invalid result: ${event.message}\n`,
      );
      return;
    case "tool-error":
      if (event.masked) {
        const error = event.error;
        process.stderr.write(
          `mcp-gen: ${event.source ?? "tool"} "${event.tool}" failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
      }
      return;
    case "protocol":
      process.stderr.write(`mcp-gen: ${event.error.message}\n`);
      return;
  }
}

/** Which lists an `update()` changed. */
export interface ListsChanged {
  tools: boolean;
  resources: boolean;
  prompts: boolean;
}

/** List changes through a bus every replica hears (`McpGenServerOptions.sharedLists`). */
export interface SharedLists {
  /** Publishes the lists this server's `update()` changed. */
  publish(changed: ListsChanged): void;
  /** Called once per server factory: `notify` tells its clients of lists changed on any replica. */
  listen(notify: (changed: ListsChanged) => void): void;
}
