import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openPostgresLedger, openSqliteLedger } from "../../service/index.ts";
import type { LedgerFixture } from "./contract.ts";

/** A fresh SQLite file in a temp dir per fixture. */
export async function sqliteFixture(): Promise<LedgerFixture & { file: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ledger-test-"));
  const file = path.join(dir, "ledger.sqlite");
  return {
    file,
    open: async (options) => openSqliteLedger({ ...options, file }),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const PG_URL = process.env.LEDGER_PG_URL;
/** Local opt-out of the PostgreSQL suite; CI never sets it. */
export const PG_SKIP = process.env.LEDGER_PG_SKIP === "1";
export const PG_MISSING =
  "LEDGER_PG_URL is not set, so the PostgreSQL ledger suite cannot run. Start a throwaway server with " +
  "`source .ci/postgres.sh` (it installs Debian's postgresql when missing and exports LEDGER_PG_URL), " +
  "or set LEDGER_PG_SKIP=1 to skip this suite locally.";

let counter = 0;

/** A fresh schema per fixture on the server of `LEDGER_PG_URL`, dropped afterwards. */
export async function postgresFixture(): Promise<LedgerFixture> {
  if (!PG_URL) throw new Error(PG_MISSING);
  const schema = `ledger_test_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`;
  return {
    open: async (options) => openPostgresLedger({ ...options, connectionString: PG_URL, schema }),
    dispose: async () => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
