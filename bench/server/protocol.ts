/**
 * The two MCP protocol eras as the benchmark driver speaks them, in raw JSON-RPC, the way the
 * SDK v2 client does (`@modelcontextprotocol/client` 2.4.0):
 * - 2025 (`2025-11-25`): `initialize`, then `notifications/initialized`, then plain requests; over
 *   HTTP every request after `initialize` carries `MCP-Protocol-Version: 2025-11-25` (and the
 *   session id when the server gave one).
 * - 2026 (`2026-07-28`): no handshake; every request carries the `_meta` envelope (protocol version,
 *   client info, client capabilities), over HTTP also the `MCP-Protocol-Version`, `Mcp-Method` and,
 *   for tools/call, `Mcp-Name` headers. The connection opens with a `server/discover` probe sent
 *   in place (what the client does over HTTP and on custom stdio transports; on its own
 *   `StdioClientTransport` it probes on a sibling process and the connection's first message is
 *   an enveloped request instead — either one pins the connection to 2026-07-28 in `serveStdio`).
 * Each opening and call reply is checked for the era it should show.
 */

import type { Channel } from "./channels.ts";

export const ERAS = ["2025", "2026"] as const;
export type Era = (typeof ERAS)[number];
export const PROTOCOL_VERSION: Record<Era, string> = { "2025": "2025-11-25", "2026": "2026-07-28" };

const CLIENT_INFO = { name: "bench", version: "1" };
const ENVELOPE = {
  "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION["2026"],
  "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
  "io.modelcontextprotocol/clientCapabilities": {},
};

export interface Message {
  jsonrpc: "2.0";
  id?: number;
  method: string;
  params?: Record<string, unknown>;
}

/** The first request of a connection: `initialize` (2025) or `server/discover` (2026). */
export function opening(era: Era, id: number): Message & { id: number } {
  return era === "2025"
    ? {
        jsonrpc: "2.0",
        id,
        method: "initialize",
        params: { protocolVersion: PROTOCOL_VERSION["2025"], capabilities: {}, clientInfo: CLIENT_INFO },
      }
    : { jsonrpc: "2.0", id, method: "server/discover", params: { _meta: ENVELOPE } };
}

/** The notification that follows a 2025 `initialize` answer (none in 2026). */
export const INITIALIZED: Message = { jsonrpc: "2.0", method: "notifications/initialized" };

/** The measured request: `search_devices` with a query and a limit. */
export function toolCall(era: Era, id: number): Message & { id: number } {
  const params = { name: "search_devices", arguments: { query: "客厅 灯", limit: 2 } };
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: era === "2026" ? { ...params, _meta: ENVELOPE } : params,
  };
}

/** The HTTP headers a v2 client adds to a message of an era (after the opening, for 2025). */
export function eraHeaders(era: Era, message: Message): Record<string, string> {
  if (era === "2025") {
    return message.method === "initialize" ? {} : { "mcp-protocol-version": PROTOCOL_VERSION["2025"] };
  }
  const name = message.method === "tools/call" ? (message.params?.name as string | undefined) : undefined;
  return {
    "mcp-protocol-version": PROTOCOL_VERSION["2026"],
    "mcp-method": message.method,
    ...(name === undefined ? {} : { "mcp-name": name }),
  };
}

type Reply = { result?: Record<string, unknown>; error?: unknown };

/** Throws unless the reply to `opening(era)` shows that era was negotiated. */
export function checkOpening(era: Era, reply: unknown): void {
  const result = (reply as Reply).result;
  const ok =
    era === "2025"
      ? result?.protocolVersion === PROTOCOL_VERSION["2025"]
      : result?.resultType === "complete" &&
        Array.isArray(result.supportedVersions) &&
        result.supportedVersions.includes(PROTOCOL_VERSION["2026"]);
  if (!ok) throw new Error(`the ${era} opening was not answered in that era: ${JSON.stringify(reply)}`);
}

/**
 * Throws unless the reply to `toolCall(era)` is a successful result in that era's encoding:
 * 2026-07-28 results carry `resultType: "complete"` and the device array as `structuredContent`;
 * 2025 results carry no `resultType` and the array wrapped as `{ result }`.
 */
export function checkCall(era: Era, reply: unknown): void {
  const result = (reply as Reply).result;
  const structured = result?.structuredContent as { result?: unknown } | undefined;
  const ok =
    result !== undefined &&
    result.isError !== true &&
    (era === "2026"
      ? result.resultType === "complete" && Array.isArray(structured) && structured.length > 0
      : result.resultType === undefined &&
        Array.isArray(structured?.result) &&
        (structured.result as unknown[]).length > 0);
  if (!ok) throw new Error(`not a ${era}-era tools/call result: ${JSON.stringify(reply).slice(0, 600)}`);
}

/** The command-line value after `--name`, or `fallback`. */
export function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1]!;
}

/** Tool calls on an opened connection: one at a time, or `n` with `inflight` in flight. */
export interface CallDriver {
  one(): Promise<unknown>;
  calls(n: number): Promise<void>;
}

/** Opens `channel` in `era` (the opening checked) and numbers its tool calls from 1. */
export async function openCalls(
  channel: Pick<Channel, "call" | "notify">,
  era: Era,
  inflight: number,
): Promise<CallDriver> {
  checkOpening(era, await channel.call(opening(era, 0)));
  if (era === "2025") await channel.notify(INITIALIZED);
  let id = 1;
  return {
    one: () => channel.call(toolCall(era, id++)),
    async calls(n) {
      let left = n;
      await Promise.all(
        Array.from({ length: inflight }, async () => {
          while (left-- > 0) await channel.call(toolCall(era, id++));
        }),
      );
    },
  };
}
