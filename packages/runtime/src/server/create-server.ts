import { RESULT_WRAPPED_META } from "@mcp-gen/schema/contract";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, SetLevelRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { LOG_LEVELS, type LogLevel } from "../context.ts";
import { type CallEnvironment, callTool } from "./call-tool.ts";
import type { ManifestTool, ServerManifest } from "./manifest.ts";
import { logToStderr, type ServerOptions } from "./options.ts";
import { createToolContext } from "./tool-context.ts";

/**
 * Builds an MCP server (the official SDK's low-level `Server`) for a generated manifest,
 * ready to `connect()` to any SDK transport. `serve()` does this for stdio and HTTP.
 *
 * @example
 * import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
 * import { manifest } from "../generated/smart-home/server.ts";
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await createServer(manifest).connect(serverSide);
 */
export function createServer(manifest: ServerManifest, options: ServerOptions = {}): Server {
  const tools = new Map<string, ManifestTool>(manifest.tools.map((t) => [t.definition.name, t]));
  // A wrapped result is marked in _meta, so `mcp-gen pull` from this server unwraps it as well.
  const listed = {
    tools: manifest.tools.map((t) =>
      t.resultWrapped
        ? {
            ...t.definition,
            _meta: { ...(t.definition._meta as object | undefined), [RESULT_WRAPPED_META]: true },
          }
        : t.definition,
    ),
  };
  const report = options.onError ?? logToStderr;
  const limits = { maxDepth: options.maxArgumentDepth ?? 64 };
  const server = new Server(
    { name: manifest.server, version: options.version ?? manifest.version ?? "0.0.0" },
    {
      capabilities: { tools: {}, logging: {} },
      jsonSchemaValidator: sharedSchemaValidator,
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    },
  );
  server.onerror = (error) => report({ kind: "protocol", error });

  // Per connection (a server can be reconnected): until the client sets a level, every message is sent.
  const minimum = new WeakMap<Transport, number>();
  const allows = (level: LogLevel) =>
    LOG_LEVELS.indexOf(level) >= (server.transport ? (minimum.get(server.transport) ?? 0) : 0);
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    if (server.transport) minimum.set(server.transport, LOG_LEVELS.indexOf(request.params.level));
    return {};
  });

  // tools/list and tools/call are answered by the fallback handler, which the SDK calls with the
  // request as its transport parsed it: registered handlers would parse every call twice more with
  // zod (and its result once), work the generated validators already do.
  server.fallbackRequestHandler = async (request, extra) => {
    if (request.method === "tools/list") return listed;
    if (request.method !== "tools/call") throw protocolError(ErrorCode.MethodNotFound, "Method not found");
    const params = request.params as { name?: unknown; arguments?: unknown } | undefined;
    const name = params?.name;
    const args = params?.arguments;
    if (
      typeof name !== "string" ||
      (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args)))
    ) {
      throw protocolError(
        ErrorCode.InvalidParams,
        "Invalid params: tools/call takes a string name and an arguments object",
      );
    }
    const tool = tools.get(name);
    if (!tool) throw protocolError(ErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(name)}`);
    const env: CallEnvironment = {
      limits,
      maskErrors: options.maskErrors ?? false,
      timeoutMs: timeoutOf(name, options),
      requestSignal: extra.signal,
      context: (signal) => createToolContext({ server, toolName: name, extra, signal, allows }),
      report,
    };
    return callTool(tool, args, env);
  };
  return server;
}

function timeoutOf(tool: string, options: ServerOptions): number | undefined {
  const own = options.toolTimeoutsMs && Object.hasOwn(options.toolTimeoutsMs, tool);
  return own ? options.toolTimeoutsMs![tool] : options.timeoutMs;
}

/**
 * An error the SDK sends as a JSON-RPC error with this code and message as is (an `McpError`
 * would put its own "MCP error -32602:" prefix into the message on the wire).
 */
function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * The SDK builds an Ajv instance for every `Server` (to check elicitation replies): one shared,
 * created on first use, keeps start-up and per-request servers (stateless HTTP) cheap.
 */
let ajvValidator: AjvJsonSchemaValidator | undefined;
const sharedSchemaValidator: jsonSchemaValidator = {
  getValidator(schema) {
    ajvValidator ??= new AjvJsonSchemaValidator();
    return ajvValidator.getValidator(schema);
  },
};
