import { type Connection, connectInMemory } from "@mcp-gen/runtime/client";
import { type RunningServer, serve } from "@mcp-gen/runtime/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createManifest } from "../../../generated/ledger/server.ts";
import { formatEth, type LedgerService, openSqliteLedger, seedDemoAccounts } from "../service/index.ts";
import { LedgerTools, type Statement } from "../tools.ts";
import { sqliteFixture } from "./support/backends.ts";

/**
 * `export_statement` served in memory (a plain call: this client asks for no task) on a SQLite
 * ledger whose clock the test sets: the period's bounds, balances from the transaction log
 * alone, more than one page of history, and bad periods.
 */
describe("export_statement", () => {
  let fixture: Awaited<ReturnType<typeof sqliteFixture>>;
  let ledger: LedgerService;
  let client: Connection["client"];
  let stop: () => Promise<void>;
  let clock = "2025-12-31T12:00:00.000Z";

  beforeAll(async () => {
    fixture = await sqliteFixture();
    ledger = openSqliteLedger({ file: fixture.file, defaultSender: "alice", now: () => new Date(clock) });
    await seedDemoAccounts(ledger); // 100 ETH each, on Dec 31
    clock = "2026-01-01T10:00:00.000Z";
    await ledger.transferEth({ toAddress: "bob", amount: "10" });
    clock = "2026-01-02T10:00:00.000Z";
    await ledger.transferEth({ sender: "bob", toAddress: "carol", amount: "3" });
    clock = "2026-01-03T00:00:00.000Z"; // exactly the end of the period: not in it
    await ledger.mint({ address: "bob", amount: "1.5" });
    // More than one page (1,000) of dave's history, all on Jan 4.
    clock = "2026-01-04T00:00:00.000Z";
    for (let i = 0; i < 1001; i++) await ledger.mint({ address: "dave", amount: "0.001" });
    let server: RunningServer | undefined;
    const connection = await connectInMemory(
      {
        connect: async (transport) => {
          server = await serve(createManifest({ LedgerTools: new LedgerTools(ledger) }), { transport });
        },
      },
      { clientInfo: { name: "statement-test", version: "1.0.0" } },
    );
    client = connection.client;
    stop = async () => {
      await connection.close();
      await server?.close();
    };
  });

  afterAll(async () => {
    await stop?.();
    await ledger?.close();
    await fixture?.dispose();
  });

  const exportStatement = (args: Record<string, unknown>) =>
    client.callTool({ name: "export_statement", arguments: args });

  it("sums the period [from, to) and takes the opening balance from the history before it", async () => {
    const result = await exportStatement({
      address: "BOB",
      from: "2026-01-01T00:00:00Z",
      to: "2026-01-03T00:00:00Z",
    });
    const statement = result.structuredContent as unknown as Statement;
    expect({
      ...statement,
      transactions: statement.transactions.map((t) => [t.kind, t.from, t.to, t.amount]),
    }).toStrictEqual({
      address: "bob",
      from: "2026-01-01T00:00:00.000Z",
      to: "2026-01-03T00:00:00.000Z",
      opening_balance: "100",
      closing_balance: "107",
      total_in: "10",
      total_out: "3",
      transactions: [
        ["transfer", "alice", "bob", "10"],
        ["transfer", "bob", "carol", "3"],
      ],
    });
  });

  it("closes at today's balance without `to`, across more than one page of history", async () => {
    for (const address of ["bob", "dave"]) {
      const statement = (await exportStatement({ address, from: "2026-01-01T00:00:00Z" }))
        .structuredContent as unknown as Statement;
      const { balanceWei } = await ledger.getBalance(address);
      expect([statement.closing_balance, statement.opening_balance]).toStrictEqual([
        formatEth(balanceWei),
        "100",
      ]);
    }
    const dave = (await exportStatement({ address: "dave", from: "2026-01-04T00:00:00Z" }))
      .structuredContent as unknown as Statement;
    expect([dave.transactions.length, dave.total_in, dave.closing_balance]).toStrictEqual([
      1001,
      "1.001",
      "101.001",
    ]);
  });

  it("refuses a period that ends before it starts, and a date that is not ISO 8601", async () => {
    expect(
      await exportStatement({ address: "bob", from: "2026-01-02T00:00:00Z", to: "2026-01-01T00:00:00Z" }),
    ).toMatchObject({
      isError: true,
      content: [
        {
          text: '"from" (2026-01-02T00:00:00Z) must be before "to" (2026-01-01T00:00:00.000Z): pass an earlier "from"',
        },
      ],
    });
    const bad = await exportStatement({ address: "bob", from: "yesterday" });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toMatch(/\/from.*date-time/);
  });
});
