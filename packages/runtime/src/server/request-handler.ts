import {
  type JSONRPCRequest,
  type ProtocolEra,
  ProtocolErrorCode,
  type Result,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { observed } from "./call-observer.ts";
import { type CallEnvironment, checkArguments } from "./call-tool.ts";
import type { Catalog } from "./catalog.ts";
import type { Connections } from "./connections.ts";
import { execute } from "./execute.ts";
import type { Features } from "./features.ts";
import type { McpGenServerEvent, McpGenServerOptions } from "./options.ts";
import type { ParkedCalls } from "./parked.ts";
import { protocolError } from "./protocol.ts";
import type { Subject } from "./resources.ts";

/** What one SDK `Server` of a factory answers with. */
export interface HandlerContext {
  era: ProtocolEra;
  server: Server;
  options: McpGenServerOptions;
  connections: Connections;
  parked: ParkedCalls;
  /** The catalog of now (`update()` may replace it) and its loaded features. */
  current(): { catalog: Catalog; features: Features | Promise<Features> };
  /** What serving one request needs (a tool call's timeout, and where it notes its outcome). */
  environment(
    ctx: ServerContext,
    subject: Subject | ToolSubject,
    call?: Pick<CallEnvironment, "timeoutMs" | "note">,
  ): CallEnvironment;
  /** Whose tasks a request sees. */
  ownerOf(ctx: ServerContext): string | undefined;
  report(event: McpGenServerEvent): void;
}

type ToolSubject = { kind: "tool"; name: string; uri?: undefined };

/**
 * The handler of every request of one SDK `Server` (its `fallbackRequestHandler`): the SDK hands
 * it the request as its transport parsed it, where registered handlers would parse every call
 * twice more with zod (and its result once), work the generated validators already do.
 * Capabilities are checked here for the same reason (the SDK checks them only for registered
 * handlers).
 */
export function requestHandler(h: HandlerContext) {
  const { era, options } = h;
  return async (request: JSONRPCRequest, ctx: ServerContext): Promise<Result> => {
    const { method, params } = request;
    const { catalog, features: loading } = h.current();
    if (!catalog.serves(method, era))
      throw protocolError(ProtocolErrorCode.MethodNotFound, "Method not found");
    const listings = catalog.listings[era];
    switch (method) {
      case "tools/list":
        if (!options.filterToolsByScope) return listings.tools as Result;
        return (loading instanceof Promise ? await loading : loading).scopedListing!(
          listings.tools,
          catalog.tools,
          ctx.http?.authInfo,
        ) as Result;
      case "tools/call": {
        const features = loading instanceof Promise ? await loading : loading;
        return observed(options, {
          kind: "tool",
          params,
          ctx,
          era,
          run: (note) => callTool(params, ctx, note, catalog, features),
        });
      }
      case "resources/list":
        return listings.resources as Result;
      case "resources/templates/list":
        return listings.resourceTemplates as Result;
      case "prompts/list":
        return listings.prompts as Result;
      case "resources/subscribe":
      case "resources/unsubscribe":
        return subscription(method, params);
    }
    const features = loading instanceof Promise ? await loading : loading;
    const env = (subject: Subject) => h.environment(ctx, subject);
    switch (method) {
      case "resources/read":
      case "prompts/get": {
        const run =
          method === "resources/read"
            ? () =>
                features.readResource!({
                  catalog: features.resources!,
                  params,
                  environment: env,
                  parked: h.parked,
                })
            : () =>
                features.getPrompt!({ catalog: catalog.prompts, params, environment: env, parked: h.parked });
        const kind = method === "resources/read" ? "resource" : "prompt";
        return observed(options, { kind, params, ctx, era, run });
      }
      case "completion/complete":
        return features.complete!(
          { prompts: catalog.prompts, templates: features.resources?.byTemplate ?? new Map() },
          params,
          {
            maskErrors: options.maskErrors ?? false,
            report: h.report,
          },
        );
      default:
        // `tasks/*`: served only where the manifest has task tools.
        return features.tasks!.request(method, params, { era, ctx, owner: h.ownerOf(ctx) });
    }
  };

  /**
   * `tools/call`: arguments checked once, then as a task or on the one execution path. Not
   * `async`: the handler around it is, and a promise of its own would only delay the result.
   */
  function callTool(
    params: unknown,
    ctx: ServerContext,
    note: CallEnvironment["note"],
    catalog: Catalog,
    features: Features,
  ): Result | Promise<Result> {
    const { name, arguments: args } = (params ?? {}) as { name?: unknown; arguments?: unknown };
    if (
      typeof name !== "string" ||
      (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args)))
    ) {
      throw protocolError(
        ProtocolErrorCode.InvalidParams,
        "Invalid params: tools/call takes a string name and an arguments object",
      );
    }
    const tool = catalog.tools.get(name);
    const target = catalog.targets.get(name);
    if (!tool || !target)
      throw protocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(name)}`);
    const env = h.environment(ctx, { kind: "tool", name }, { timeoutMs: timeoutOf(name, options), note });
    const checked = checkArguments(tool, args, env);
    const tasks = features.tasks;
    if (!tasks) {
      if (!checked.ok) return checked.result;
      return execute({ target, args: checked.args, env, parked: h.parked });
    }
    const call = {
      tool,
      target,
      checked,
      env,
      params: params as Record<string, unknown>,
      ctx,
      era,
      server: h.server,
      owner: h.ownerOf(ctx),
    };
    const asTask = tasks.call(call);
    if (asTask) return asTask;
    if (!checked.ok) return checked.result;
    const toTask = era === "modern" ? tasks.deferred(call) : undefined;
    return execute({ target, args: checked.args, env, parked: h.parked, ...(toTask ? { toTask } : {}) });
  }

  /** 2025 `resources/subscribe`/`unsubscribe` (the 2026-07-28 codec refuses both: clients listen instead). */
  function subscription(method: string, params: unknown): Result {
    const uri = (params as { uri?: unknown } | undefined)?.uri;
    if (typeof uri !== "string") {
      throw protocolError(ProtocolErrorCode.InvalidParams, `Invalid params: ${method} takes a string uri`);
    }
    if (method === "resources/subscribe") h.connections.subscribe(h.server, uri);
    else h.connections.unsubscribe(h.server, uri);
    return {};
  }
}

function timeoutOf(tool: string, options: McpGenServerOptions): number | undefined {
  const own = options.toolTimeoutsMs && Object.hasOwn(options.toolTimeoutsMs, tool);
  return own ? options.toolTimeoutsMs![tool] : options.timeoutMs;
}
