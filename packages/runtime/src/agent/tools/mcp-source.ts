import { type IngestIssue, normalizeSchema } from "@mcp-gen/schema";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioServerParameters } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type CallToolResult, ErrorCode, McpError, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { type Connection, connectHttp, connectStdio } from "../../client/connect.ts";
import type { ToolDefinition } from "../../server/manifest.ts";
import { errorResult } from "../../server/result.ts";
import type { AgentTool, ToolSource } from "./agent-tool.ts";
import { createSchemaCompiler } from "./compile-schema.ts";
import { convertedDialects, offerOf } from "./dialects.ts";

/** Options of `mcpTools()`: a name and one way to reach the server. */
export type McpToolsOptions = { name: string } & (
  | { /** A connected SDK client; the caller closes it. */ client: Client }
  | { /** Starts the server as a child process (closed with the agent). */ stdio: StdioServerParameters }
  | {
      /** Streamable HTTP endpoint (closed with the agent). */ url: string | URL;
      headers?: Record<string, string>;
    }
);

const CLIENT_INFO = { name: "mcp-gen-agent", version: "0.1.0" };

/**
 * The tools of any MCP server, listed when the agent starts: their schemas are compiled into
 * validators and converted to the model's dialect at run time, and calls go over the client.
 * Seed 002's multi-server agent is several of these in one agent.
 *
 * @example
 * const memory = mcpTools({ name: "memory", stdio: { command: "npx", args: ["mcp-server-memory"] } });
 * const agent = createAgent({ model, tools: [localTools(manifest), memory] });
 */
export function mcpTools(options: McpToolsOptions): ToolSource {
  let connection: Connection | undefined;
  const connect = async (): Promise<Client> => {
    if ("client" in options) return options.client;
    connection ??=
      "stdio" in options
        ? await connectStdio(options.stdio, { clientInfo: CLIENT_INFO })
        : await connectHttp(options.url, {
            clientInfo: CLIENT_INFO,
            ...(options.headers ? { headers: options.headers } : {}),
          });
    return connection.client;
  };
  return {
    name: options.name,
    async load() {
      const client = await connect();
      const listed = await listAll(client);
      const warnings: string[] = [];
      const definitions = listed.map((t) => normalized(options.name, t, warnings));
      const dialects = convertedDialects(options.name, definitions);
      const compile = createSchemaCompiler();
      const tools = definitions.map((definition): AgentTool => {
        const compiled = compile(definition.inputSchema, `arguments of tool "${definition.name}"`);
        if (compiled.warning) warnings.push(`${options.name}: ${compiled.warning}`);
        return {
          name: definition.name,
          definition,
          input: compiled.validator,
          offer: (dialect) => offerOf(dialects, dialect, definition.name),
          normalize: (dialect, args) => dialects.normalize(dialect, definition.name, args),
          execute: (args, execution) =>
            callRemote(client, definition.name, args, execution.signal, execution.timeoutMs),
        };
      });
      const instructions = client.getInstructions();
      const info = client.getServerVersion();
      const description = instructions ?? (info?.title as string | undefined) ?? info?.name;
      return { tools, warnings, ...(description ? { description } : {}) };
    },
    async close() {
      await connection?.close();
      connection = undefined;
    },
  };
}

/**
 * A listed tool with its input schema normalised to JSON Schema 2020-12 the way `mcp-gen pull`
 * normalises it (draft-07/04 keywords, `definitions`, `nullable` …), so validation and provider
 * conversion read what the server meant; what normalising reports becomes a warning.
 */
function normalized(source: string, tool: Tool, warnings: string[]): ToolDefinition {
  const issues: IngestIssue[] = [];
  const inputSchema = normalizeSchema(tool.inputSchema, {
    mode: "emit",
    issues,
  }) as ToolDefinition["inputSchema"];
  for (const issue of issues)
    warnings.push(`${source}/${tool.name}: ${issue.message} (at /inputSchema${issue.pointer.from})`);
  return { ...(tool as unknown as ToolDefinition), inputSchema };
}

async function listAll(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

async function callRemote(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  timeoutMs: number | undefined,
): Promise<CallToolResult> {
  try {
    return (await client.callTool({ name, arguments: args }, undefined, {
      signal,
      ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}),
    })) as CallToolResult;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
      return errorResult(`Tool "${name}" timed out after ${timeoutMs} ms`);
    return errorResult(`Tool "${name}" failed: ${(error as Error).message}`);
  }
}
