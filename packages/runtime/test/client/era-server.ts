import type { ConnectableServer } from "@mcp-gen/runtime/client";
import { type CallToolResult, Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

/** The protocol era a connection was served in. */
export type Era = "legacy" | "modern";

/** Devices as `search_devices` of the smart-home contract returns them. */
export const DEVICES = [
  { id: "a", fullId: "uuid-a", name: "吸顶灯", room: "客厅", type: "light", capabilities: ["switch"] },
];

/** The structured result of a wrapped tool as each era carries it: `{ result: v }`, or `v` itself. */
export const wrappedFor = (era: Era, value: unknown): CallToolResult =>
  ({ content: [], structuredContent: era === "modern" ? value : { result: value } }) as CallToolResult;

/**
 * The factory of an SDK v2 server whose every tool answers whatever `reply(era)` returns; `onCall`
 * learns the era of each call. `serveStdio` serves it: the client's opening picks the era (2025
 * `initialize`, or 2026-07-28 `server/discover`).
 */
export function eraFactory(reply: (era: Era) => CallToolResult, onCall?: (era: Era) => void) {
  return ({ era }: { era: Era }) => {
    const server = new Server({ name: "era-fake", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/call", () => {
      onCall?.(era);
      return reply(era);
    });
    return server;
  };
}

/** `eraFactory`'s server for a client connected in memory; `eras` records the era of each call. */
export function eraServer(reply: (era: Era) => CallToolResult): ConnectableServer & { eras: Era[] } {
  const eras: Era[] = [];
  const factory = eraFactory(reply, (era) => eras.push(era));
  return {
    eras,
    async connect(transport) {
      serveStdio(factory, { transport });
    },
  };
}
