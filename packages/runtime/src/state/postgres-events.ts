import type { Client } from "pg";
import type { Sql } from "./postgres-tasks.ts";
import type { EventBus, StateEvent } from "./types.ts";

/**
 * The event bus on PostgreSQL: `publish` inserts a row and notifies (in one statement, so the
 * notification goes out on commit); each replica's listening connection only wakes it up to read
 * the rows after the last one it delivered. When that connection drops, it is opened again and
 * the rows published meanwhile are read then.
 */
export async function postgresEvents(options: {
  sql: Sql;
  listen: () => Client;
  schema: string;
  now: () => number;
}): Promise<{ bus: EventBus; close(): Promise<void> }> {
  const { sql, schema, now } = options;
  const channel = `${schema}_events`;
  const listeners = new Set<(event: StateEvent) => void>();
  const [top] = await sql.query<{ seq: string | null }>(`SELECT max(seq) AS seq FROM ${schema}.events`);
  let last = Number(top?.seq ?? 0);
  let closed = false;
  let client: Client | undefined;

  /**
   * Sequence values skipped so far, with when: a sequence value is taken before its transaction
   * commits, so a lower one may commit after a higher one was read. Each catch-up reads them again
   * (their own NOTIFY wakes it); one still missing after GAP_MS was rolled back and is forgotten.
   */
  const gaps = new Map<number, number>();
  const GAP_MS = 10_000;
  // One catch-up at a time; a wake-up during one runs another after it.
  let reading: Promise<void> | undefined;
  let again = false;
  const catchUp = (): Promise<void> => {
    if (reading) {
      again = true;
      return reading;
    }
    reading = (async () => {
      do {
        again = false;
        for (const [seq, since] of gaps) if (Date.now() - since > GAP_MS) gaps.delete(seq);
        const rows = await sql
          .query<{ seq: string; event: StateEvent }>(
            `SELECT seq, event FROM ${schema}.events WHERE seq > $1 OR seq = ANY($2::bigint[]) ORDER BY seq`,
            [last, [...gaps.keys()]],
          )
          .catch(() => {
            // Unreachable for now: nothing is skipped (`last` stays), the rows are read again later.
            if (!closed) setTimeout(() => void catchUp(), 500).unref();
            return [];
          });
        for (const row of rows) {
          const seq = Number(row.seq);
          if (!gaps.delete(seq)) {
            if (seq <= last) continue;
            // Bounded: a jump of thousands is a restarted sequence cache, not transactions in flight.
            for (let missing = Math.max(last + 1, seq - 100); missing < seq; missing++)
              gaps.set(missing, Date.now());
            last = seq;
          }
          for (const listener of [...listeners]) listener(row.event);
        }
      } while (again && !closed);
    })().finally(() => {
      reading = undefined;
    });
    return reading;
  };

  const connect = async (): Promise<void> => {
    for (let attempt = 1; !closed; attempt++) {
      const next = options.listen();
      next.on("error", () => {});
      try {
        await next.connect();
        await next.query(`LISTEN ${channel}`);
      } catch {
        await next.end().catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, Math.min(attempt * 200, 2000)));
        continue;
      }
      if (closed) {
        await next.end().catch(() => {});
        return;
      }
      client = next;
      next.on("notification", () => void catchUp());
      next.once("end", () => {
        if (!closed) void connect();
      });
      // Whatever was published while this replica was not listening.
      void catchUp();
      return;
    }
  };
  await connect();

  return {
    bus: {
      async publish(event) {
        await sql.query(
          `WITH e AS (INSERT INTO ${schema}.events (at, event) VALUES ($1, $2) RETURNING seq)
           SELECT pg_notify($3, seq::text) FROM e`,
          [now(), JSON.stringify(event), channel],
        );
      },
      subscribe(listener) {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    },
    async close() {
      closed = true;
      listeners.clear();
      await client?.end().catch(() => {});
    },
  };
}
