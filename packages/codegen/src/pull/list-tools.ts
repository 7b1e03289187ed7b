import {
  Client,
  type Implementation,
  type Prompt,
  type ProtocolEra,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
  type Tool,
  type Transport,
  type VersionNegotiationMode,
} from "@modelcontextprotocol/client";
import { explainFailure, NoTools, type Observed, observing } from "./failure.ts";
import type { PullProtocol } from "./protocols.ts";
import { describeSource, type PullSource } from "./source.ts";
import { PullStdioTransport } from "./stdio-transport.ts";

/** What a live server says about itself and its tools (and its resources, templates and prompts). */
export interface ServerTools {
  serverInfo: Implementation | undefined;
  tools: Tool[];
  /** Empty when the server does not declare the `resources` capability. */
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  /** Empty when the server does not declare the `prompts` capability. */
  prompts: Prompt[];
  /** `modern`: MCP 2026-07-28 or later; `legacy`: the 2025 protocol (`initialize`). */
  era: ProtocolEra;
  /** The protocol version the connection negotiated, e.g. `2026-07-28` or `2025-11-25`. */
  protocolVersion: string;
}

const CLIENT_INFO: Implementation = { name: "mcp-gen-pull", version: "0.1.0" };

class Timeout extends Error {}

/** One connection to the server: its client, its transport and what was seen of the server. */
interface Attempt {
  client: Client;
  transport: Transport;
  observed: Observed;
}

/**
 * Connects to a live MCP server, lists all its tools (following pagination) and disconnects
 * (stopping a stdio server). Everything must happen within `timeoutMs`. Failures are
 * `McpGenError`s that say whether the server did not start, did not answer, or is not MCP.
 *
 * In `auto` mode a stdio server that exits (or breaks the connection) on the `server/discover`
 * probe, as servers on SDKs that stop at any request before `initialize` do, is started once
 * more and spoken to in the 2025 protocol only.
 *
 * @example
 * const { tools, protocolVersion } = await listServerTools({ kind: "stdio", command: "npx", args: ["@modelcontextprotocol/server-memory"] }, { timeoutMs: 30_000 });
 */
export async function listServerTools(
  source: PullSource,
  options: { timeoutMs: number; cwd?: string; protocol?: PullProtocol },
): Promise<ServerTools> {
  const protocol = options.protocol ?? "auto";
  let attempt: Attempt | undefined;
  let over = false;
  const open = async (mode: VersionNegotiationMode): Promise<ServerTools> => {
    if (attempt) await attempt.client.close().catch(() => {});
    if (over) throw new Timeout(); // the time ran out meanwhile: start nothing more
    attempt = connection(source, mode, options);
    return session(attempt, options.timeoutMs);
  };
  const run = async (): Promise<ServerTools> => {
    try {
      return await open(negotiation(protocol));
    } catch (error) {
      const probeFailed = error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed;
      if (over || protocol !== "auto" || source.kind !== "stdio" || !probeFailed) throw error;
      return await open("legacy");
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), options.timeoutMs);
  });
  try {
    return await Promise.race([run(), deadline]);
  } catch (error) {
    throw explainFailure(error, {
      source,
      pinned: protocol === "auto" || protocol === "legacy" ? undefined : protocol,
      observed: attempt?.observed ?? observing(),
      timedOut: error instanceof Timeout,
      timeoutMs: options.timeoutMs,
      where: describeSource(source),
    });
  } finally {
    over = true;
    clearTimeout(timer);
    const { client, transport } = attempt ?? {};
    // A 2025 server over HTTP may keep a session for pull; 2026-07-28 has no sessions.
    if (
      transport instanceof StreamableHTTPClientTransport &&
      transport.sessionId &&
      client?.getProtocolEra() === "legacy"
    ) {
      await transport.terminateSession().catch(() => {});
    }
    await client?.close().catch(() => {});
  }
}

function negotiation(protocol: PullProtocol): VersionNegotiationMode {
  return protocol === "auto" || protocol === "legacy" ? protocol : { pin: protocol };
}

function connection(
  source: PullSource,
  mode: VersionNegotiationMode,
  options: { timeoutMs: number; cwd?: string },
): Attempt {
  const observed = observing();
  const transport: Transport =
    source.kind === "stdio"
      ? new PullStdioTransport({ command: source.command, args: source.args, cwd: options.cwd }, observed)
      : new StreamableHTTPClientTransport(new URL(source.url), {
          requestInit: { headers: source.headers },
          ...(source.authProvider ? { authProvider: source.authProvider } : {}),
        });
  const client = new Client(CLIENT_INFO, {
    capabilities: {},
    versionNegotiation: {
      mode,
      // On stdio, a server that never answers the probe is taken for a 2025 one (some ignore
      // requests before `initialize`): give it half the time, leaving the rest for `initialize`.
      // Over HTTP silence is an outage, so the probe may take all of it.
      ...(source.kind === "stdio" ? { probe: { timeoutMs: Math.ceil(options.timeoutMs / 2) } } : {}),
    },
  });
  return { client, transport, observed };
}

async function session({ client, transport }: Attempt, timeout: number): Promise<ServerTools> {
  await client.connect(transport, { timeout });
  const serverInfo = client.getServerVersion();
  if (!client.getServerCapabilities()?.tools) {
    throw new NoTools(`it does not declare the "tools" capability`);
  }
  // Paged by hand: client.listTools() would stop at its page cap without naming a repeated
  // cursor, and on 2026-07-28 it leaves out tools whose `x-mcp-header` declarations are
  // invalid, which the contract must show rather than lose.
  const tools = await listAll("tools/list", async (params) => {
    const page = await client.request({ method: "tools/list", params }, { timeout });
    return { items: page.tools, nextCursor: page.nextCursor };
  });
  const capabilities = client.getServerCapabilities();
  const resources: Resource[] = capabilities?.resources
    ? await listAll("resources/list", async (params) => {
        const page = await client.request({ method: "resources/list", params }, { timeout });
        return { items: page.resources, nextCursor: page.nextCursor };
      })
    : [];
  const resourceTemplates: ResourceTemplate[] = capabilities?.resources
    ? await listAll("resources/templates/list", async (params) => {
        const page = await client.request({ method: "resources/templates/list", params }, { timeout });
        return { items: page.resourceTemplates, nextCursor: page.nextCursor };
      })
    : [];
  const prompts: Prompt[] = capabilities?.prompts
    ? await listAll("prompts/list", async (params) => {
        const page = await client.request({ method: "prompts/list", params }, { timeout });
        return { items: page.prompts, nextCursor: page.nextCursor };
      })
    : [];
  return {
    serverInfo,
    tools,
    resources,
    resourceTemplates,
    prompts,
    era: client.getProtocolEra() ?? "legacy",
    protocolVersion: client.getNegotiatedProtocolVersion() ?? "unknown",
  };
}

/** Every page of one list request, following `nextCursor`; a repeated cursor is an error. */
async function listAll<T>(
  method: string,
  page: (params: { cursor?: string }) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
): Promise<T[]> {
  const all: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const next = await page(cursor !== undefined ? { cursor } : {});
    all.push(...next.items);
    cursor = next.nextCursor;
    if (cursor !== undefined && seen.has(cursor))
      throw new NoTools(`${method} repeats the cursor "${cursor}"`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return all;
}
