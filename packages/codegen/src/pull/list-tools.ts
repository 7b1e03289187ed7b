import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Implementation, Tool } from "@modelcontextprotocol/sdk/types.js";
import { explainFailure, NoTools, type Observed } from "./failure.ts";
import { describeSource, type PullSource } from "./source.ts";

/** What a live server says about itself and its tools. */
export interface ServerTools {
  serverInfo: Implementation | undefined;
  tools: Tool[];
}

const CLIENT_INFO: Implementation = { name: "mcp-gen-pull", version: "0.1.0" };
const STDERR_LINES = 12;

class Timeout extends Error {}

/**
 * Connects to a live MCP server, lists all its tools (following pagination) and disconnects
 * (stopping a stdio server). Everything must happen within `timeoutMs`. Failures are
 * `McpGenError`s that say whether the server did not start, did not answer, or is not MCP.
 *
 * @example
 * const { tools } = await listServerTools({ kind: "stdio", command: "npx", args: ["@modelcontextprotocol/server-memory"] }, { timeoutMs: 30_000 });
 */
export async function listServerTools(
  source: PullSource,
  options: { timeoutMs: number; cwd?: string },
): Promise<ServerTools> {
  const observed: Observed = { stderr: [], badOutput: [], exited: false };
  const transport = openTransport(source, observed, options.cwd);
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Timeout()), options.timeoutMs);
  });
  try {
    return await Promise.race([session(client, transport), deadline]);
  } catch (error) {
    throw explainFailure(error, {
      source,
      observed,
      timedOut: error instanceof Timeout,
      timeoutMs: options.timeoutMs,
      where: describeSource(source),
    });
  } finally {
    clearTimeout(timer);
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      await transport.terminateSession().catch(() => {});
    }
    await client.close().catch(() => {});
  }
}

async function session(client: Client, transport: Transport): Promise<ServerTools> {
  await client.connect(transport);
  const serverInfo = client.getServerVersion();
  if (!client.getServerCapabilities()?.tools) {
    throw new NoTools(`it does not declare the "tools" capability`);
  }
  const tools: Tool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
    if (cursor !== undefined && seen.has(cursor))
      throw new NoTools(`tools/list repeats the cursor "${cursor}"`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return { serverInfo, tools };
}

function openTransport(source: PullSource, observed: Observed, cwd: string | undefined): Transport {
  let transport: Transport;
  if (source.kind === "stdio") {
    const stdio = new StdioClientTransport({
      command: source.command,
      args: source.args,
      env: process.env as Record<string, string>,
      stderr: "pipe",
      ...(cwd ? { cwd } : {}),
    });
    let pending = "";
    stdio.stderr?.on("data", (chunk: Buffer) => {
      const lines = (pending + chunk.toString("utf8")).split("\n");
      pending = lines.pop() ?? "";
      observed.stderr.push(...lines.filter((l) => l.trim() !== ""));
      observed.stderr.splice(0, Math.max(0, observed.stderr.length - STDERR_LINES));
    });
    stdio.stderr?.on("end", () => {
      if (pending.trim() !== "") observed.stderr.push(pending);
    });
    transport = stdio;
  } else {
    transport = new StreamableHTTPClientTransport(new URL(source.url), {
      requestInit: { headers: source.headers },
    });
  }
  transport.onerror = (error) => {
    if (error instanceof SyntaxError || error.name === "ZodError") observed.badOutput.push(error.message);
  };
  transport.onclose = () => {
    observed.exited = true;
  };
  return transport;
}
