import { type IngestIssue, normalizeSchema } from "@mcp-gen/schema";
import {
  type CallToolResult,
  type Client,
  DEFAULT_REQUEST_TIMEOUT_MSEC,
  type JsonSchemaType,
  type JsonSchemaValidator,
  type jsonSchemaValidator,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type Tool,
} from "@modelcontextprotocol/client";
import type { StdioServerParameters } from "@modelcontextprotocol/client/stdio";
import {
  type ConnectHttpOptions,
  type Connection,
  connectHttp,
  connectStdio,
  type McpGenConnectOptions,
  type ProtocolChoice,
} from "../../client/connect.ts";
import type { ToolDefinition } from "../../server/manifest.ts";
import { errorResult } from "../../server/result.ts";
import type { Validator } from "../../validation/validator.ts";
import { clientContext } from "../context/source-context.ts";
import type { AgentTool, ToolSource } from "./agent-tool.ts";
import { type CompiledValidator, createSchemaCompiler } from "./compile-schema.ts";
import { convertedDialects, offerOf } from "./dialects.ts";

/** Options of `mcpTools()`: a name and one way to reach the server. */
export type McpToolsOptions = { name: string } & (
  | { /** A connected SDK client (`@modelcontextprotocol/client`); the caller closes it. */ client: Client }
  | ({
      /** Starts the server as a child process (closed with the agent). */ stdio: StdioServerParameters;
    } & Reach)
  | ({
      /** Streamable HTTP endpoint (closed with the agent). */ url: string | URL;
      headers?: Record<string, string>;
      /** OAuth for a server that requires it (see `connectHttp`), e.g. `oauthClientCredentials(…)`. */
      authProvider?: ConnectHttpOptions["authProvider"];
    } & Reach)
);

/** How the agent connects when it starts the connection itself. */
interface Reach {
  /** The protocol to speak (default `"auto"`: 2026-07-28 when the server offers it, else 2025). */
  protocol?: ProtocolChoice;
  /** Told which protocol the connection negotiated, once connected. */
  onConnected?: (connection: { era: "modern" | "legacy"; protocolVersion: string | undefined }) => void;
}

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
  // One connection, however many listings (tools, resources, prompts) ask for it at once.
  let connection: Promise<Connection> | undefined;
  // The SDK client checks structured results against the listed output schemas: with the
  // agent's compiler (2020-12, formats, the feedback format), not with one of its own.
  const compile = createSchemaCompiler();
  const outputs = outputValidators(compile);
  const open = async (reach: Exclude<McpToolsOptions, { client: Client }>): Promise<Connection> => {
    const connectOptions: McpGenConnectOptions = {
      clientInfo: CLIENT_INFO,
      clientOptions: { jsonSchemaValidator: outputs.provider },
      protocol: reach.protocol ?? "auto",
    };
    const opened =
      "stdio" in reach
        ? await connectStdio(reach.stdio, connectOptions)
        : await connectHttp(reach.url, {
            ...connectOptions,
            ...(reach.headers ? { headers: reach.headers } : {}),
            ...(reach.authProvider ? { authProvider: reach.authProvider } : {}),
          });
    reach.onConnected?.({ era: opened.era, protocolVersion: opened.protocolVersion });
    return opened;
  };
  const connect = async (): Promise<Client> => {
    if ("client" in options) return options.client;
    if (!connection) {
      connection = open(options);
      connection.catch(() => {
        connection = undefined;
      });
    }
    return (await connection).client;
  };
  return {
    name: options.name,
    async load() {
      const client = await connect();
      // Without a cursor, the v2 client walks every page.
      const { tools: listed } = await client.listTools();
      const warnings: string[] = [];
      const definitions = listed.map((t) => normalized(options.name, t, warnings));
      for (const tool of listed) {
        if (tool.outputSchema !== undefined) outputs.prepare(options.name, tool, warnings);
      }
      const dialects = convertedDialects(options.name, definitions);
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
    async context() {
      return clientContext(await connect());
    },
    async close() {
      const opened = connection;
      connection = undefined;
      await (await opened?.catch(() => undefined))?.close();
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

/**
 * The SDK client's `jsonSchemaValidator` for one source: output schemas normalised as input schemas
 * are, compiled by the source's compiler. `prepare` compiles each listed schema when the tools are
 * loaded (reporting what normalising and compiling say); the client, which builds its validators
 * from its own copy of the listing, gets those by the schema's JSON.
 */
function outputValidators(compile: (schema: unknown, subject: string) => CompiledValidator) {
  const prepared = new Map<string, Validator<unknown>>();
  const compileOutput = (schema: unknown, subject: string, issues: IngestIssue[]) =>
    compile(normalizeSchema(schema, { mode: "emit", issues }), subject);
  const provider: jsonSchemaValidator = {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      const validator =
        prepared.get(JSON.stringify(schema)) ?? compileOutput(schema, "structured result", []).validator;
      return (input) => {
        const checked = validator.check(input);
        return checked.ok
          ? { valid: true, data: input as T, errorMessage: undefined }
          : { valid: false, data: undefined, errorMessage: checked.message };
      };
    },
  };
  return {
    provider,
    /** Compiles the output schema of a listed tool, with a warning for what normalising or compiling says. */
    prepare(source: string, tool: Tool, warnings: string[]): void {
      const issues: IngestIssue[] = [];
      const compiled = compileOutput(tool.outputSchema, `result of tool "${tool.name}"`, issues);
      for (const issue of issues)
        warnings.push(`${source}/${tool.name}: ${issue.message} (at /outputSchema${issue.pointer.from})`);
      if (compiled.warning) warnings.push(`${source}: ${compiled.warning}`);
      prepared.set(JSON.stringify(tool.outputSchema), compiled.validator);
    },
  };
}

async function callRemote(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
  timeoutMs: number | undefined,
): Promise<CallToolResult> {
  try {
    return await client.callTool(
      { name, arguments: args },
      { signal, ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}) },
    );
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
      return errorResult(`Tool "${name}" timed out after ${timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MSEC} ms`);
    if (error instanceof ProtocolError)
      return errorResult(`Tool "${name}" failed: MCP error ${error.code}: ${error.message}`);
    return errorResult(`Tool "${name}" failed: ${(error as Error).message}`);
  }
}
