import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type LedgerService, openSqliteLedger } from "../service/index.ts";
import { auditLedger } from "./support/audit.ts";
import { sqliteFixture } from "./support/backends.ts";
import { startLoad } from "./support/load.ts";
import type { Ack } from "./support/transfer-load.ts";

const ACCOUNTS = 10;

describe("SQLite ledger across processes", () => {
  let fixture: Awaited<ReturnType<typeof sqliteFixture>>;
  let ledger: LedgerService;

  beforeEach(async () => {
    fixture = await sqliteFixture();
    ledger = openSqliteLedger({ file: fixture.file });
    for (let i = 0; i < ACCOUNTS; i++) await ledger.mint({ address: `acct-${i}`, amount: "50" });
  });

  afterEach(async () => {
    await ledger.close();
    await fixture.dispose();
  });

  /** Every acknowledged transfer is stored as acknowledged, and the ledger agrees with itself. */
  async function expectDurable(acks: Ack[], supply: bigint) {
    const db = new Database(fixture.file, { readonly: true });
    try {
      expect(db.pragma("integrity_check")).toStrictEqual([{ integrity_check: "ok" }]);
      expect(db.pragma("foreign_key_check")).toStrictEqual([]);
    } finally {
      db.close();
    }
    const audit = await auditLedger(ledger);
    expect(audit.problems).toStrictEqual([]);
    expect(audit.supply).toBe(supply);
    const stored = new Map(audit.transactions.map((t) => [t.id, t]));
    const missing = acks.filter((a) => {
      const t = stored.get(a.id);
      return (
        !t || t.from !== a.from || t.to !== a.to || `${t.amountWei}` !== a.wei || t.idempotencyKey !== a.key
      );
    });
    expect(missing).toStrictEqual([]);
  }

  it("keeps 4 writer processes consistent, with one idempotent debit for a key they share", async () => {
    const supply = (await auditLedger(ledger)).supply;
    const loads = [1, 2, 3, 4].map((seed) =>
      startLoad({ file: fixture.file, accounts: ACCOUNTS, seed, count: 300, sharedKey: "shared" }),
    );
    const exits = await Promise.all(loads.map((l) => l.exited));
    expect(exits.map((e) => [e.code, e.stderr])).toStrictEqual([0, 0, 0, 0].map((code) => [code, ""]));
    const acks = loads.flatMap((l) => l.acks);
    const shared = acks.filter((a) => a.key === "shared");
    expect(shared.map((a) => a.replayed).sort()).toStrictEqual([false, true, true, true]);
    expect(new Set(shared.map((a) => a.id)).size).toBe(1);
    expect(acks.length).toBeGreaterThan(600);
    await expectDurable(acks, supply);
  });

  it("keeps every acknowledged transfer when the writer is killed with SIGKILL mid-load", async () => {
    const supply = (await auditLedger(ledger)).supply;
    const acks: Ack[] = [];
    for (const seed of [11, 12, 13]) {
      const load = startLoad({
        file: fixture.file,
        accounts: ACCOUNTS,
        seed,
        count: "forever",
        onAck: (_, l) => {
          if (l.acks.length === 150) l.child.kill("SIGKILL");
        },
      });
      const exit = await load.exited;
      expect([exit.code, exit.signal], exit.stderr).toStrictEqual([null, "SIGKILL"]);
      acks.push(...load.acks);
      // Reopen after each kill, as a restarted server would, and check before the next round.
      await ledger.close();
      ledger = openSqliteLedger({ file: fixture.file });
      await expectDurable(acks, supply);
    }
    expect(acks.length).toBeGreaterThanOrEqual(450);
  });
});
