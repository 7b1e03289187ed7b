import {
  type AuthProvider,
  Client,
  type ClientOptions,
  type Implementation,
  InMemoryTransport,
  type OAuthClientProvider,
  type ProtocolEra,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
  type Transport,
  type VersionNegotiationMode,
} from "@modelcontextprotocol/client";
import { StdioClientTransport, type StdioServerParameters } from "@modelcontextprotocol/client/stdio";

/**
 * Which protocol a client speaks:
 * - `"auto"` (default): asks the server with `server/discover` and uses 2026-07-28 when it offers
 *   it, else falls back to the 2025 `initialize` handshake;
 * - `"legacy"`: the 2025 handshake only, exactly as a 2025 client;
 * - `"2026-07-28"`: that revision or a connect error (`SdkError` `ERA_NEGOTIATION_FAILED`).
 */
export type ProtocolChoice = "auto" | "legacy" | "2026-07-28";

/** The two protocol families: `"modern"` (2026-07-28 and later) and `"legacy"` (2025 and earlier); the SDK's own type. */
export type { ProtocolEra } from "@modelcontextprotocol/client";

/** A connected SDK client, what it negotiated, and how to end the session. */
export interface Connection {
  client: Client;
  /** The protocol era the connection negotiated. */
  era: ProtocolEra;
  /** The negotiated protocol version, e.g. `"2026-07-28"` or `"2025-11-25"`. */
  protocolVersion: string | undefined;
  /** Closes the client (and, for stdio, stops the child process; for in-memory, the server side). */
  close(): Promise<void>;
}

/** A connection to a server running as a child process. */
export interface StdioConnection extends Connection {
  /** The server process id (`null` once it has ended). */
  readonly pid: number | null;
}

/** Options every connect helper takes. */
export interface McpGenConnectOptions {
  /** Name and version the client announces; default `{ name: "mcp-gen-client", version: "0.1.0" }`. */
  clientInfo?: Implementation;
  /** Passed to the SDK `Client` (capabilities, `jsonSchemaValidator` …). */
  clientOptions?: ClientOptions;
  /**
   * The protocol to speak (default `"auto"`; it sets the SDK's `versionNegotiation.mode`). Over
   * stdio, `"auto"` sends its `server/discover` probe to the server process itself; a server
   * that exits on that unknown request is started again and greeted the 2025 way.
   */
  protocol?: ProtocolChoice;
}

/** Options of `connectStdio`. */
export interface ConnectStdioOptions extends McpGenConnectOptions {
  /**
   * Receives what the server writes to stderr (which is then piped instead of inherited), from
   * its first byte on: also when connecting fails.
   */
  onStderr?: (text: string) => void;
}

const DEFAULT_INFO: Implementation = { name: "mcp-gen-client", version: "0.1.0" };

function negotiationMode(protocol: ProtocolChoice): VersionNegotiationMode {
  return protocol === "2026-07-28" ? { pin: protocol } : protocol;
}

async function open(transport: Transport, options: McpGenConnectOptions): Promise<Connection> {
  const clientOptions = options.clientOptions ?? {};
  const negotiation = clientOptions.versionNegotiation;
  const mode =
    options.protocol !== undefined
      ? negotiationMode(options.protocol)
      : (negotiation?.mode ?? negotiationMode("auto"));
  const client = new Client(options.clientInfo ?? DEFAULT_INFO, {
    ...clientOptions,
    versionNegotiation: { ...negotiation, mode },
  });
  try {
    await client.connect(transport);
  } catch (error) {
    // A failed handshake leaves the transport (a child process, a server side) open otherwise.
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
    throw error;
  }
  return {
    client,
    era: client.getProtocolEra() ?? "legacy",
    protocolVersion: client.getNegotiatedProtocolVersion(),
    close: () => client.close(),
  };
}

/**
 * Starts an MCP server as a child process and connects to it over stdio.
 *
 * @example
 * const { client, era, close } = await connectStdio({ command: "node", args: ["server.js"] });
 * const home = createSmartHomeClient(client);
 */
export async function connectStdio(
  server: StdioServerParameters,
  options: ConnectStdioOptions = {},
): Promise<StdioConnection> {
  const { onStderr } = options;
  const start = () => {
    const transport = new InPlaceStdioClientTransport(onStderr ? { ...server, stderr: "pipe" } : server);
    if (onStderr) {
      transport.stderr?.on("data", (chunk: Buffer | string) =>
        onStderr(typeof chunk === "string" ? chunk : chunk.toString("utf8")),
      );
    }
    return transport;
  };
  let transport = start();
  let connection: Connection;
  try {
    connection = await open(transport, options);
  } catch (error) {
    const auto =
      (options.protocol ?? "auto") === "auto" && options.clientOptions?.versionNegotiation === undefined;
    if (!auto || !(error instanceof SdkError) || error.code !== SdkErrorCode.EraNegotiationFailed)
      throw error;
    // The server ended (or broke) on the probe, as some 2025 servers do on an unknown request.
    transport = start();
    connection = await open(transport, { ...options, protocol: "legacy" });
  }
  return {
    ...connection,
    get pid() {
      return transport.pid;
    },
  };
}

/**
 * The SDK's stdio transport, under a name of its own: the SDK sends the `'auto'` probe over
 * its exact `StdioClientTransport` to a second, short-lived copy of the server (started from the
 * same command), but over a subclass to the server itself. One process instead of two halves
 * the time `connectStdio` takes against a current server, and a server with side effects at
 * start-up runs them once.
 */
class InPlaceStdioClientTransport extends StdioClientTransport {}

/** Options of `connectHttp`. */
export interface ConnectHttpOptions extends McpGenConnectOptions {
  /** Headers sent with every request (a static `Authorization: Bearer …` for local servers). */
  headers?: Record<string, string>;
  /**
   * OAuth for servers that require it (MCP "Authorization"): the SDK's providers, e.g.
   * `new ClientCredentialsProvider({ clientId, clientSecret, expectedIssuer })` for machines. On a
   * 401 the client reads the server's Protected Resource Metadata, discovers its authorization
   * server, gets a token for the server (RFC 8707 `resource`) and retries; on a 403
   * `insufficient_scope` it asks for the scopes the server names. See `oauthClientCredentials`.
   */
  authProvider?: AuthProvider | OAuthClientProvider;
}

/**
 * Connects to an MCP server over Streamable HTTP.
 *
 * @example
 * const { client, close } = await connectHttp("http://127.0.0.1:3000/mcp");
 * const authorized = await connectHttp("https://mcp.example.com/mcp", {
 *   authProvider: oauthClientCredentials({ clientId: "ci", clientSecret, issuer: "https://auth.example.com" }),
 * });
 */
export function connectHttp(url: string | URL, options: ConnectHttpOptions = {}): Promise<Connection> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(options.headers ? { requestInit: { headers: options.headers } } : {}),
    ...(options.authProvider ? { authProvider: options.authProvider } : {}),
  });
  return open(transport, options);
}

/**
 * Anything that serves MCP over a transport: the runtime's `createServer(manifest)`, an SDK
 * `Server` or `McpServer` (v1 or v2; connected by hand, these speak the 2025 protocol only).
 */
export interface ConnectableServer {
  connect(transport: Transport): Promise<void>;
}

/**
 * Connects a client to a server in the same process over linked in-memory transports.
 *
 * @example
 * const { client, close } = await connectInMemory(createServer(manifest));
 */
export async function connectInMemory(
  server: ConnectableServer,
  options: McpGenConnectOptions = {},
): Promise<Connection> {
  // Both halves from the client package: the server package's InMemoryTransport is another class.
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  return open(clientSide, options);
}
