import type { Transport } from "@modelcontextprotocol/server";
import type { WithCodeToolOptions } from "../code/code-tool.ts";
import type { SharedState } from "../state/types.ts";
import type { HttpOptions } from "./http/options.ts";
import type { ServerManifest } from "./manifest.ts";
import type { McpGenServerOptions } from "./options.ts";
import { serveOverStdio, serveTransport } from "./stdio.ts";

/** Where `serve()` listens, and where it keeps what replicas share. */
export type ServeOptions = McpGenServerOptions & {
  /**
   * State shared with the other replicas of this server: `"redis://…"`, `"postgres://…"` (the
   * `ioredis` or `pg` package, loaded only then), `"memory:"`, or an opened `SharedState`
   * (`@mcp-gen/runtime/state`). Tasks are kept there, `/readyz` fails while the engine is
   * unreachable, and `notifyResourceUpdated` reaches the clients of every replica. Default: none
   * (tasks in this process's memory).
   */
  state?: string | SharedState;
  /**
   * With `state`: the keys that seal 2026-07-28 `input_required` rounds, newest first, the same
   * on every replica (each ≥ 32 bytes); a retry of a `@readOnly` / `@idempotent` tool then runs
   * on any replica. Rotate by putting a new key first, and drop the old one 10 minutes later.
   * Default: `MCP_GEN_STATE_KEYS` (comma-separated) or `MCP_GEN_STATE_KEY`; none: retries must
   * reach the replica that asked.
   */
  stateKeys?: readonly string[];
  /**
   * Code mode (`mcp-gen serve --code`): also serve a `run_program` tool whose description declares
   * the tools as a TypeScript API; a client sends one program, type-checked and then run in a
   * sandbox. `{ only: true }` serves it alone (`--code-only`); `{ allowDestructive: true }` runs
   * destructive calls when the client cannot be asked through elicitation
   * (`--code-allow-destructive`); `servers` adds MCP clients the programs can call too (`--mcp`).
   * Needs the `typescript` package (or `typescript`: a compiler API). Default: off.
   */
  code?: boolean | Omit<WithCodeToolOptions, "manifest">;
} & (
    | {
        /** stdio (default): the way Claude Desktop, Cursor and the MCP Inspector launch servers. */
        transport?: "stdio";
      }
    | {
        /** Streamable HTTP on `http.host`:`http.port` (default 127.0.0.1:3000), endpoint `http.path` (`/mcp`). */
        transport: "http";
        http?: HttpOptions;
      }
    | {
        /** Any SDK transport, e.g. one side of `InMemoryTransport.createLinkedPair()` (one connection, either era). */
        transport: Transport;
      }
  );

/** A running server. */
export interface RunningServer {
  /** The endpoint, for HTTP (`http://127.0.0.1:3000/mcp`). */
  readonly url: string | undefined;
  /** Resolves once the server has stopped (closed, or stdin ended). */
  readonly closed: Promise<void>;
  /** Stops accepting requests and closes every connection. */
  close(): Promise<void>;
  /**
   * Shuts down gracefully (SIGTERM behind a load balancer): over HTTP the health check turns 503,
   * new requests are refused (503, `Retry-After`), and the calls being answered finish — for at most
   * `timeoutMs` (default 30 s) — before everything closes. Over stdio, the same as `close()`.
   * Resolves with how many calls the timeout cut off (0: every call finished).
   */
  drain(timeoutMs?: number): Promise<DrainResult>;
  /**
   * Serves another manifest from now on and tells every client its tool list changed, and its
   * resource and prompt lists when they differ (2026-07-28 clients through `subscriptions/listen`,
   * 2025 clients with a notification on their connection). Needs `listChanged: true`.
   */
  update(manifest: ServerManifest): void;
  /**
   * Tells the clients subscribed to a resource that it changed (`notifications/resources/updated`):
   * 2025 clients that sent `resources/subscribe` for `uri`, 2026-07-28 clients listening for it
   * through `subscriptions/listen`. Tools, resources and prompts can do the same with
   * `ctx.notifyResourceUpdated(uri)`.
   */
  notifyResourceUpdated(uri: string): void;
}

/** What `drain()` ended with. */
export interface DrainResult {
  /** Calls still being answered when the drain timeout closed the server (0: all finished). */
  readonly cutOff: number;
}

/**
 * Serves the tools of a generated manifest over stdio, Streamable HTTP or a given transport.
 * Every `tools/call` is validated before the implementation runs.
 *
 * @example
 * import { serve } from "@mcp-gen/runtime/server";
 * import { manifest } from "./generated/smart-home/server.ts";
 * await serve(manifest);                                                   // stdio
 * await serve(manifest, { transport: "http", http: { port: 3000 } });     // http://127.0.0.1:3000/mcp
 * await serve(manifest, { code: { only: true } });                         // one run_program tool
 */
export async function serve(manifest: ServerManifest, options: ServeOptions = {}): Promise<RunningServer> {
  if (options.code) {
    const { code, ...rest } = options;
    const { serveWithCode } = await import("../code/serve-code.ts");
    return serveWithCode({ manifest, code: code === true ? {} : code, options: rest as ServeOptions, serve });
  }
  if (options.state !== undefined) {
    const { serveWithState } = await import("../state/serve-with-state.ts");
    const { state, ...rest } = options;
    return serveWithState(
      manifest,
      { ...rest, state } as ServeOptions & { state: string | SharedState },
      serve,
    );
  }
  const transport = options.transport ?? "stdio";
  if (transport === "http") {
    const { serveHttp } = await import("./http/serve-http.ts");
    return serveHttp(manifest, options, "http" in options ? (options.http ?? {}) : {});
  }
  if (transport === "stdio") return serveOverStdio(manifest, options);
  return serveTransport(manifest, options, transport);
}
