import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openState, type SharedState, type StateEvent } from "../../src/state/index.ts";
import { ENGINES_SKIP, PG_URL } from "./engines.ts";

/**
 * PostgreSQL takes an event's sequence value before its transaction commits: a publisher that
 * commits late must not have its event skipped by a replica that already read a later one.
 */
describe.skipIf(ENGINES_SKIP || !PG_URL)("shared state events on PostgreSQL", () => {
  const namespace = `t_${randomUUID().replaceAll("-", "").slice(0, 12)}`;
  let state!: SharedState;
  let raw!: pg.Client;

  beforeAll(async () => {
    state = await openState(PG_URL!, { namespace });
    raw = new pg.Client({ connectionString: PG_URL });
    await raw.connect();
  });
  afterAll(async () => {
    await raw?.end();
    await state?.close();
  });

  it("delivers an event whose transaction commits after a later event was read", async () => {
    const seen: StateEvent[] = [];
    let wake!: () => void;
    let wanted = 0;
    const heard = (count: number) =>
      new Promise<void>((resolve) => {
        wanted = count;
        wake = resolve;
        if (seen.length >= count) resolve();
      });
    state.events.subscribe((event) => {
      seen.push(event);
      if (seen.length >= wanted) wake();
    });
    const early = { type: "resource-updated", uri: "file:///early" } as const;
    const later = { type: "resource-updated", uri: "file:///later" } as const;
    // The slow publisher takes its sequence value first, and commits last.
    await raw.query("BEGIN");
    await raw.query(
      `WITH e AS (INSERT INTO ${namespace}.events (at, event) VALUES ($1, $2) RETURNING seq)
       SELECT pg_notify($3, seq::text) FROM e`,
      [Date.now(), JSON.stringify(early), `${namespace}_events`],
    );
    await state.events.publish(later);
    await heard(1);
    expect(seen).toStrictEqual([later]);
    await raw.query("COMMIT");
    await heard(2);
    expect(seen).toStrictEqual([later, early]);
  });
});
