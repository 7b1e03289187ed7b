import { fileURLToPath } from "node:url";
import { type Connection, connectStdio } from "@mcp-gen/runtime/client";
import { createLedgerClient, type LedgerClient } from "../../../generated/ledger/client.ts";
import type { Balance } from "../tools.ts";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = fileURLToPath(new URL("../../../packages/codegen/bin/mcp-gen.js", import.meta.url));

/** The MCP side of the web chat: a client connected to `mcp-gen serve ledger` in a child process. */
export interface LedgerServer {
  /** The SDK client (the agent's tool source uses it). */
  client: Connection["client"];
  /** The generated typed client on `client`. */
  ledger: LedgerClient;
  /** Every account and its balance, read with the `list_accounts` tool. */
  balances(): Promise<Balance[]>;
  /** What the server wrote to stderr lately (for error messages). */
  stderr(): string;
  close(): Promise<void>;
}

export interface LedgerServerOptions {
  /** `LEDGER_DB` of the server process; default: inherited (else the example's SQLite file). */
  database?: string | undefined;
  /** More environment for the server process (e.g. `LEDGER_DEFAULT_SENDER`). */
  env?: Record<string, string> | undefined;
}

/**
 * Starts `mcp-gen serve ledger` as a child process and connects to it over stdio, as an MCP
 * host does — the seed's `MCPToolClient(server_cmd=…)`. Unexpected server errors are masked;
 * the ledger's refusals still reach the model.
 *
 * @example
 * const server = await startLedgerServer({ database: "/tmp/demo.sqlite" });
 * console.log(await server.balances());
 */
export async function startLedgerServer(options: LedgerServerOptions = {}): Promise<LedgerServer> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), ...options.env };
  if (options.database !== undefined) env.LEDGER_DB = options.database;
  let stderr = "";
  const { client, close } = await connectStdio(
    { command: process.execPath, args: [BIN, "serve", "ledger", "--mask-errors"], cwd: ROOT, env },
    {
      clientInfo: { name: "ledger-web-chat", version: "0.1.0" },
      onStderr: (text) => {
        stderr = (stderr + text).slice(-4000);
      },
    },
  ).catch((error: Error) => {
    throw new Error(`could not start mcp-gen serve ledger: ${error.message}\n${stderr}`);
  });
  const ledger = createLedgerClient(client);
  return {
    client,
    ledger,
    async balances() {
      const listed = await ledger.listAccounts();
      if (!listed.ok) throw new Error(`list_accounts failed: ${listed.message}`);
      return listed.value.accounts;
    },
    stderr: () => stderr,
    close,
  };
}
