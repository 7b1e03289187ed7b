import type pg from "pg";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  address TEXT PRIMARY KEY,
  balance NUMERIC(78, 0) NOT NULL CHECK (balance >= 0)
);
CREATE TABLE IF NOT EXISTS transactions (
  id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('transfer', 'mint')),
  from_address TEXT REFERENCES accounts(address),
  to_address TEXT NOT NULL REFERENCES accounts(address),
  amount NUMERIC(78, 0) NOT NULL CHECK (amount > 0),
  sender_balance NUMERIC(78, 0),
  created_at TIMESTAMPTZ NOT NULL,
  idempotency_key TEXT UNIQUE,
  CHECK ((kind = 'mint') = (from_address IS NULL))
);
CREATE INDEX IF NOT EXISTS transactions_from ON transactions(from_address, id);
CREATE INDEX IF NOT EXISTS transactions_to ON transactions(to_address, id);
`;
/** Serialises table creation between processes opening one database at once. */
const SCHEMA_LOCK = 7_340_001;
/** Lock conflicts PostgreSQL resolves by aborting one side; the transaction is retried. */
const RETRYABLE = new Set(["40001", "40P01"]);

/** Creates the schema and the ledger's tables when missing (`schema` is a checked identifier). */
export async function createTables(pool: pg.Pool, schema: string): Promise<void> {
  await withTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [SCHEMA_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(SCHEMA);
  });
}

/**
 * Runs `work` in one transaction on a pooled connection: committed when it returns, rolled
 * back when it throws, and retried (up to 5 times) when PostgreSQL aborted it over a
 * deadlock or serialization failure.
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query("BEGIN");
      const result = await work(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      // A connection that cannot roll back is dropped from the pool, not reused.
      await client.query("ROLLBACK").catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      const code = (error as { code?: unknown }).code;
      if (attempt < 5 && typeof code === "string" && RETRYABLE.has(code)) continue;
      throw error;
    } finally {
      client.release(broken);
    }
  }
}
