import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, type StdioServerParameters } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Implementation } from "@modelcontextprotocol/sdk/types.js";

/** A connected SDK client and how to end the session. */
export interface Connection {
  client: Client;
  /** Closes the client (and, for stdio, stops the child process; for in-memory, the server side). */
  close(): Promise<void>;
}

/** Options every connect helper takes. */
export interface ConnectOptions {
  /** Name and version the client announces; default `{ name: "mcp-gen-client", version: "0.1.0" }`. */
  clientInfo?: Implementation;
  /** Passed to the SDK `Client` (capabilities …). */
  clientOptions?: ClientOptions;
}

const DEFAULT_INFO: Implementation = { name: "mcp-gen-client", version: "0.1.0" };

async function open(transport: Transport, options: ConnectOptions): Promise<Connection> {
  const client = new Client(options.clientInfo ?? DEFAULT_INFO, options.clientOptions);
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/**
 * Starts an MCP server as a child process and connects to it over stdio.
 *
 * @example
 * const { client, close } = await connectStdio({ command: "node", args: ["server.js"] });
 * const home = createSmartHomeClient(client);
 */
export function connectStdio(
  server: StdioServerParameters,
  options: ConnectOptions = {},
): Promise<Connection> {
  return open(new StdioClientTransport(server), options);
}

/**
 * Connects to an MCP server over Streamable HTTP.
 *
 * @example
 * const { client, close } = await connectHttp("http://127.0.0.1:3000/mcp");
 */
export function connectHttp(
  url: string | URL,
  options: ConnectOptions & { headers?: Record<string, string> } = {},
): Promise<Connection> {
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    options.headers ? { requestInit: { headers: options.headers } } : undefined,
  );
  return open(transport, options);
}

/** Anything that serves MCP over a transport: the SDK `Server`, `McpServer`, or a runtime server. */
export interface ConnectableServer {
  connect(transport: Transport): Promise<void>;
}

/**
 * Connects a client to a server in the same process over linked in-memory transports.
 *
 * @example
 * const { client, close } = await connectInMemory(server);
 */
export async function connectInMemory(
  server: ConnectableServer,
  options: ConnectOptions = {},
): Promise<Connection> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return open(clientSide, options);
}
