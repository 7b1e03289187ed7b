import type { Client, Pool } from "pg";
import { postgresEvents } from "./postgres-events.ts";
import { postgresTasks, type Sql } from "./postgres-tasks.ts";
import { importClient } from "./records.ts";
import { type OpenStateOptions, type SharedState, StateUnavailableError } from "./types.ts";

/** Errors that mean "PostgreSQL is not there (yet)": the statement is retried within the budget. */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
]);
const UNREACHABLE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i;

export function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return (
    (typeof code === "string" && UNREACHABLE_CODES.has(code)) ||
    (error instanceof Error && UNREACHABLE.test(error.message))
  );
}

/** The schema, created once by whichever replica comes first (an advisory lock serialises them). */
function ddl(schema: string): string {
  return `
    SELECT pg_advisory_xact_lock(hashtext('mcp-gen state ${schema}'));
    CREATE SCHEMA IF NOT EXISTS ${schema};
    CREATE TABLE IF NOT EXISTS ${schema}.tasks (
      task_id text PRIMARY KEY, seq bigserial NOT NULL, owner text, status text NOT NULL,
      status_message text, created_at text NOT NULL, last_updated_at text NOT NULL, ttl_ms bigint,
      expires_at bigint, poll_interval_ms integer, run jsonb, result jsonb, error jsonb,
      questions jsonb NOT NULL DEFAULT '{}', answers jsonb NOT NULL DEFAULT '{}',
      cancel_requested boolean NOT NULL DEFAULT false, lease_holder text, lease_until bigint);
    CREATE INDEX IF NOT EXISTS tasks_owner_seq ON ${schema}.tasks (owner, seq);
    CREATE INDEX IF NOT EXISTS tasks_lease ON ${schema}.tasks (lease_until) WHERE lease_holder IS NOT NULL;
    CREATE INDEX IF NOT EXISTS tasks_expiry ON ${schema}.tasks (expires_at) WHERE expires_at IS NOT NULL;
    CREATE TABLE IF NOT EXISTS ${schema}.events (seq bigserial PRIMARY KEY, at bigint NOT NULL, event jsonb NOT NULL);
    CREATE TABLE IF NOT EXISTS ${schema}.continuations (id text PRIMARY KEY, expires_at bigint NOT NULL);`;
}

/**
 * The PostgreSQL engine (`postgres://`, `postgresql://`): tasks, events and continuations are rows
 * in the namespace's schema (created when missing); `LISTEN/NOTIFY` only wakes the replicas,
 * which then read the event rows they have not seen — so a replica that reconnects misses none.
 */
export async function openPostgresState(
  url: string,
  shown: string,
  options: OpenStateOptions & { namespace: string },
): Promise<SharedState> {
  const { default: pg } = await importClient<typeof import("pg")>("pg", shown);
  const now = options.now ?? Date.now;
  const budget = options.unavailableAfterMs ?? 5000;
  const schema = options.namespace;
  const pool: Pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: budget, max: 10 });
  // An idle connection that dies (restart) is dropped by the pool; the next statement opens another.
  pool.on("error", () => {});
  const unavailable = (error: unknown) =>
    new StateUnavailableError(
      `The state engine at ${shown} is unreachable: ${error instanceof Error ? error.message || (error as { code?: string }).code : String(error)}`,
      { cause: error },
    );
  /** Retries `work` while PostgreSQL is unreachable, for at most the budget. */
  const retrying = async <T>(work: () => Promise<T>): Promise<T> => {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (!isUnreachable(error)) throw error;
        if (Date.now() - started >= budget) throw unavailable(error);
        await new Promise((resolve) => setTimeout(resolve, Math.min(attempt * 100, 1000)));
      }
    }
  };
  const sql: Sql = {
    query: <R>(text: string, values?: unknown[]) =>
      retrying(async () => (await pool.query(text, values)).rows as R[]),
    tx: (work) =>
      retrying(async () => {
        const client = await pool.connect();
        try {
          await client.query("BEGIN");
          const result = await work(
            async <R>(text: string, values?: unknown[]) => (await client.query(text, values)).rows as R[],
          );
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(() => {});
          throw error;
        } finally {
          client.release();
        }
      }),
  };
  try {
    await pool.query(`BEGIN; ${ddl(schema)} COMMIT;`);
  } catch (error) {
    await pool.end().catch(() => {});
    const reason =
      error instanceof Error ? error.message || (error as { code?: string }).code : String(error);
    throw new StateUnavailableError(
      isUnreachable(error) || (error as { code?: string }).code === "ENOTFOUND"
        ? `Cannot reach the state engine at ${shown}: ${reason}. Start it, or fix the URL (--state).`
        : `Cannot set up the state schema "${schema}" at ${shown}: ${reason}`,
      { cause: error },
    );
  }
  const listen = () => new pg.Client({ connectionString: url, connectionTimeoutMillis: budget }) as Client;
  const events = await postgresEvents({ sql, listen, schema, now });
  // Finished tasks past their TTL, old events and used continuations are deleted now and then.
  const sweep = setInterval(() => {
    const at = now();
    void sql
      .query(
        `WITH t AS (DELETE FROM ${schema}.tasks WHERE expires_at <= $1),
              c AS (DELETE FROM ${schema}.continuations WHERE expires_at <= $1)
         DELETE FROM ${schema}.events WHERE at <= $1 - 600000`,
        [at],
      )
      .catch(() => {});
  }, 60_000);
  sweep.unref();

  return {
    url: shown,
    tasks: postgresTasks({ sql, schema, now, pageSize: options.pageSize ?? 50 }),
    events: events.bus,
    continuations: {
      async claim(id, expiresAt) {
        const rows = await sql.query(
          `INSERT INTO ${schema}.continuations (id, expires_at) VALUES ($1, $2)
           ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE ${schema}.continuations.expires_at <= $3
           RETURNING id`,
          [id, expiresAt, now()],
        );
        return rows.length === 1;
      },
    },
    async check() {
      try {
        await pool.query("SELECT 1");
      } catch (error) {
        throw unavailable(error);
      }
    },
    async close() {
      clearInterval(sweep);
      await events.close();
      await pool.end();
    },
  };
}
