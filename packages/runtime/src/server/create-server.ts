import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
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
  const listed = { tools: manifest.tools.map((t) => t.definition) };
  const report = options.onError ?? logToStderr;
  const limits = { maxDepth: options.maxArgumentDepth ?? 64 };
  const server = new Server(
    { name: manifest.server, version: options.version ?? manifest.version ?? "0.0.0" },
    {
      capabilities: { tools: {}, logging: {} },
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    },
  );
  server.onerror = (error) => report({ kind: "protocol", error });

  // Until the client sets a level, every message is sent.
  let minimum = 0;
  const allows = (level: LogLevel) => LOG_LEVELS.indexOf(level) >= minimum;
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    minimum = LOG_LEVELS.indexOf(request.params.level);
    return {};
  });

  server.setRequestHandler(ListToolsRequestSchema, () => listed);

  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const name = request.params.name;
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
    return callTool(tool, request.params.arguments, env);
  });
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
