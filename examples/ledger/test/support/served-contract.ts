import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoAccounts } from "../../service/index.ts";
import type { DatabaseFixture } from "./backends.ts";
import { LOAD_ACCOUNTS, type ServedContext, serveLedgerFor } from "./served-context.ts";
import { servedCrashContract } from "./served-crash.ts";
import { servedLoadContract } from "./served-load.ts";

const contract = JSON.parse(
  readFileSync(new URL("../../../../schemas/ledger.tools.json", import.meta.url), "utf8"),
);

/**
 * The ledger through MCP with real processes: `mcp-gen serve ledger` started twice on one
 * database, over stdio and over Streamable HTTP on 127.0.0.1 (both with `--mask-errors`), driven
 * by the official SDK client; the test keeps a connection of its own for setup and audits.
 */
export function servedLedgerContract(backend: string, createDatabase: () => Promise<DatabaseFixture>): void {
  describe(`mcp-gen serve ledger on ${backend} (real processes)`, () => {
    const ctx = {} as { -readonly [K in keyof ServedContext]: ServedContext[K] };

    beforeAll(async () => {
      ctx.db = await createDatabase();
      ctx.ledger = await ctx.db.open({ defaultSender: "alice" });
      // Funded before the servers start: two servers seeding an empty database at once would both mint.
      await seedDemoAccounts(ctx.ledger);
      for (const address of LOAD_ACCOUNTS) await ctx.ledger.mint({ address, amount: "50" });
      [ctx.stdio, ctx.http] = await Promise.all([serveLedgerFor(ctx, "stdio"), serveLedgerFor(ctx, "http")]);
    });

    afterAll(async () => {
      await Promise.all([ctx.stdio?.close(), ctx.http?.close()]);
      await ctx.ledger?.close();
      await ctx.db?.dispose();
    });

    it("serves the contract's tools on both transports, over one database", async () => {
      // A 2026-07-28 tool has no `execution` (the SDK drops it: tasks are an extension there).
      const listed = contract.tools.map(({ execution: _, ...tool }: Record<string, unknown>) => tool);
      expect((await ctx.stdio.client.listTools()).tools).toStrictEqual(listed);
      expect((await ctx.http.client.listTools()).tools).toStrictEqual(listed);
      const sent = await ctx.stdio.ledger.transferEth({ to_address: "bob", amount: "0.000000000000000001" });
      expect(sent).toMatchObject({ ok: true, value: { from: "alice", to: "bob", amount_wei: "1" } });
      expect(await ctx.http.ledger.getBalance({ address: "bob" })).toMatchObject({
        ok: true,
        value: { address: "bob", balance: "100.000000000000000001" },
      });
    });

    it("debits exactly once for 200 concurrent transfer_eth calls with one idempotency key", async () => {
      const key = `once-${backend}`;
      const [carol, dave] = await Promise.all([
        ctx.ledger.getBalance("carol"),
        ctx.ledger.getBalance("dave"),
      ]);
      const args = { to_address: "dave", amount: "2.5", sender: "carol", idempotency_key: key };
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => (i % 2 ? ctx.stdio : ctx.http).ledger.transferEth(args)),
      );
      const receipts = results.map((r) => (r.ok ? r.value : r.message));
      expect(receipts.filter((r) => typeof r === "string")).toStrictEqual([]);
      const values = receipts as Exclude<(typeof receipts)[number], string>[];
      expect(values.filter((r) => !r.replayed)).toHaveLength(1);
      expect(new Set(values.map((r) => r.tx_id)).size).toBe(1);
      const wei = 25n * 10n ** 17n;
      expect((await ctx.ledger.getBalance("carol")).balanceWei).toBe(carol.balanceWei - wei);
      expect((await ctx.ledger.getBalance("dave")).balanceWei).toBe(dave.balanceWei + wei);
      const keyed = (await ctx.ledger.listTransactions({ address: "dave", limit: 1000 })).filter(
        (t) => t.idempotencyKey === key,
      );
      expect(keyed.map((t) => t.id)).toStrictEqual([values[0]!.tx_id]);
    });

    const refusals: [string, Record<string, unknown>, string | RegExp][] = [
      ["a negative amount", { amount: "-5" }, "/amount: expected a string matching"],
      ["zero", { amount: "0" }, 'amount "0" is zero; send more than 0'],
      ["zero with decimals", { amount: "0.000" }, 'amount "0.000" is zero; send more than 0'],
      ["a word", { amount: "ten" }, "/amount: expected a string matching"],
      ["a JSON number", { amount: 10 }, "/amount: expected a string, received number 10"],
      ["19 decimals", { amount: "1.0000000000000000001" }, "/amount: expected a string matching"],
      ["an unknown sender", { amount: "1", sender: "eve" }, 'sender "eve" has no account'],
      [
        "insufficient funds",
        { amount: "1000000", sender: "bob" },
        /^insufficient funds: "bob" has [0-9.]+ ETH, the transfer needs 1000000 ETH/,
      ],
    ];
    it.each(
      refusals,
    )("answers %s with a clear tool error over both transports and moves nothing", async (_, extra, message) => {
      const state = async () => [
        await ctx.ledger.listAccounts(),
        (await ctx.ledger.listTransactions({ limit: 1 }))[0]?.id,
      ];
      const before = await state();
      for (const served of [ctx.stdio, ctx.http]) {
        const result = await served.client.callTool({
          name: "transfer_eth",
          arguments: { to_address: "carol", ...extra },
        });
        const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
        expect([result.isError, text]).toStrictEqual([true, expect.stringMatching(message)]);
      }
      expect(await state()).toStrictEqual(before);
    });

    servedLoadContract(ctx);
    servedCrashContract(ctx);
  });
}
