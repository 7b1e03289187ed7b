import { type Connection, connectHttp } from "@mcp-gen/runtime/client";
import { createLedgerClient, type LedgerClient } from "../../../../generated/ledger/client.ts";

/** A client of the balanced service: a 2026-07-28 one (stateless) or a 2025-era one with a session. */
export interface BalancedClient {
  readonly era: "2026-07-28" | "legacy";
  ledger: LedgerClient;
  /** The 2025-era session id (`replica-N.<uuid>`); undefined for 2026-07-28. */
  sessionId(): string | undefined;
  /** How often a 404 for its session made it start a new one. */
  reinitialized: number;
  /**
   * After a failed call: a 2025-era client whose session the service no longer knows (HTTP 404)
   * starts a new session with `initialize`, as the specification says. True when it did (false
   * also when that `initialize` failed: the caller retries, and meets the 404 again).
   */
  recover(error: unknown): Promise<boolean>;
  close(): Promise<void>;
}

/** Connects a client of `era` to `url` through the balancer. */
export async function connectBalanced(url: string, era: BalancedClient["era"]): Promise<BalancedClient> {
  const open = () =>
    connectHttp(url, { protocol: era, clientInfo: { name: `ledger-balanced-${era}`, version: "1.0.0" } });
  let connection: Connection = await open();
  const self: BalancedClient = {
    era,
    ledger: createLedgerClient(connection.client),
    sessionId: () => connection.client.transport?.sessionId,
    reinitialized: 0,
    async recover(error) {
      if (era !== "legacy" || (error as { status?: unknown }).status !== 404) return false;
      const old = connection;
      try {
        connection = await open();
      } catch {
        // The `initialize` met a replica going away (503, 502): the next failure tries again.
        return false;
      }
      self.ledger = createLedgerClient(connection.client);
      self.reinitialized++;
      await old.close().catch(() => {});
      return true;
    },
    close: () => connection.close().catch(() => {}),
  };
  return self;
}
