import { fileURLToPath } from "node:url";
import { openPostgresLedger } from "./postgres.ts";
import { openSqliteLedger } from "./sqlite.ts";
import type { LedgerOptions, LedgerService } from "./types.ts";

/** The embedded default: `examples/ledger/data/ledger.sqlite` (git-ignored). */
export const DEFAULT_DATABASE = fileURLToPath(new URL("../data/ledger.sqlite", import.meta.url));

export interface OpenLedgerOptions extends LedgerOptions {
  /**
   * `postgres://…` / `postgresql://…` for PostgreSQL, anything else is a SQLite file path
   * (an optional `sqlite:` prefix is dropped). Default: `$LEDGER_DB`, else `DEFAULT_DATABASE`.
   */
  database?: string | undefined;
}

/**
 * Opens the ledger the configuration names: SQLite by default, PostgreSQL for a URL.
 *
 * @example
 * const ledger = await openLedger({ defaultSender: "alice" }); // $LEDGER_DB or the default file
 * const pgLedger = await openLedger({ database: "postgres://ledger@127.0.0.1:5432/ledger" });
 */
export async function openLedger(options: OpenLedgerOptions = {}): Promise<LedgerService> {
  const { database = process.env.LEDGER_DB || DEFAULT_DATABASE, ...rest } = options;
  if (/^postgres(ql)?:\/\//.test(database))
    return openPostgresLedger({ ...rest, connectionString: database });
  return openSqliteLedger({ ...rest, file: database.replace(/^sqlite:/, "") });
}
