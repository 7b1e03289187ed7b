import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
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

/** A database a server process can be pointed at (`LEDGER_DB`), and a connection of the test's own. */
export interface DatabaseFixture {
  /** The `LEDGER_DB` value: a SQLite file or a `postgres://` URL. */
  database: string;
  open: LedgerFixture["open"];
  /** What the database's own consistency check reports (SQLite: `integrity_check`); empty when sound. */
  integrity(): Promise<unknown[]>;
  dispose(): Promise<void>;
}

/** A fresh SQLite file. */
export async function sqliteDatabase(): Promise<DatabaseFixture> {
  const fixture = await sqliteFixture();
  const integrity = async () => {
    const db = new Database(fixture.file, { readonly: true });
    try {
      const rows = [db.pragma("integrity_check"), db.pragma("foreign_key_check")] as unknown[][];
      return rows.flat().filter((row) => (row as { integrity_check?: string }).integrity_check !== "ok");
    } finally {
      db.close();
    }
  };
  return { database: fixture.file, open: fixture.open, integrity, dispose: fixture.dispose };
}

/**
 * A fresh database on the server of `LEDGER_PG_URL` (a whole database rather than a schema, since
 * `LEDGER_DB` is a plain URL), dropped afterwards with any connection still open to it.
 */
export async function postgresDatabase(): Promise<DatabaseFixture> {
  if (!PG_URL) throw new Error(PG_MISSING);
  const name = `ledger_test_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const database = url.href;
  return {
    database,
    open: async (options) => openPostgresLedger({ ...options, connectionString: database }),
    // Constraints (NUMERIC(78, 0), CHECK balance >= 0, foreign keys) are enforced on every write.
    integrity: async () => [],
    dispose: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
