/**
 * Which MCP protocol pull speaks: `auto` (the default) asks the server for MCP 2026-07-28 with
 * `server/discover` and falls back to the 2025 `initialize` handshake; `legacy` speaks only the
 * 2025 protocol; `2026-07-28` only that version. A module of its own so that the CLI can name the
 * choices without loading the MCP SDK's client (every command, `build` too, registers `pull`).
 */
export type PullProtocol = "auto" | "legacy" | "2026-07-28";

export const PULL_PROTOCOLS: readonly PullProtocol[] = ["auto", "legacy", "2026-07-28"];
