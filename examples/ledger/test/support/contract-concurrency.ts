import { expect, it } from "vitest";
import { LedgerError } from "../../service/index.ts";
import { auditLedger } from "./audit.ts";
import type { ContractContext } from "./fixture.ts";
import { ETH } from "./fixture.ts";
import { createRandom, randomAmount } from "./random.ts";

/** Many callers at once, over several connections: one debit per key, supply conserved. */
export function concurrencyContract(ctx: ContractContext): void {
  it("debits exactly once for 200 concurrent calls with one idempotency key", async () => {
    const second = await ctx.open();
    const calls = Array.from({ length: 200 }, (_, i) =>
      (i % 2 ? second : ctx.ledger).transferEth({ toAddress: "bob", amount: "0.5", idempotencyKey: "once" }),
    );
    const results = await Promise.all(calls);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.transaction.id)).size).toBe(1);
    expect((await ctx.ledger.getBalance("alice")).balanceWei).toBe(99n * ETH + ETH / 2n);
    expect((await ctx.ledger.getBalance("bob")).balanceWei).toBe(5n * ETH + ETH / 2n);
    expect(
      (await ctx.ledger.listTransactions({ address: "bob" })).filter((t) => t.kind === "transfer"),
    ).toHaveLength(1);
  });

  it("conserves supply under 2,000 random concurrent transfers between 20 accounts", async () => {
    const seed = Date.now() % 1_000_000;
    const random = createRandom(seed);
    const accounts = Array.from({ length: 20 }, (_, i) => `acct-${i}`);
    for (const address of accounts) await ctx.ledger.mint({ address, amount: "50" });
    const before = await auditLedger(ctx.ledger);
    const connections = [ctx.ledger, await ctx.open(), await ctx.open()];
    const requests = Array.from({ length: 2000 }, (_, i) => {
      const from = random.pick(accounts);
      let to = random.pick(accounts);
      if (to === from) to = accounts[(accounts.indexOf(from) + 1) % accounts.length]!;
      return { sender: from, toAddress: to, amount: randomAmount(random, 20), idempotencyKey: `r-${i}` };
    });
    const settled = await Promise.allSettled(requests.map((r, i) => connections[i % 3]!.transferEth(r)));
    const acknowledged = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value.transaction] : []));
    const refused = settled.flatMap((s) => (s.status === "rejected" ? [s.reason] : []));
    expect(
      refused.filter((e) => !(e instanceof LedgerError && e.code === "INSUFFICIENT_FUNDS")),
      `seed ${seed}`,
    ).toStrictEqual([]);
    expect(acknowledged.length, `seed ${seed}`).toBeGreaterThan(1000);

    const after = await auditLedger(ctx.ledger);
    expect(after.problems, `seed ${seed}`).toStrictEqual([]);
    expect(after.supply).toBe(before.supply);
    const stored = new Map(after.transactions.map((t) => [t.id, t]));
    expect(acknowledged.filter((t) => stored.get(t.id)?.amountWei !== t.amountWei)).toStrictEqual([]);
    expect(after.transactions.filter((t) => t.idempotencyKey?.startsWith("r-"))).toHaveLength(
      acknowledged.length,
    );
    const expected = new Map(before.accounts.map((a) => [a.address, a.balanceWei]));
    for (const t of acknowledged) {
      expected.set(t.from!, expected.get(t.from!)! - t.amountWei);
      expected.set(t.to, expected.get(t.to)! + t.amountWei);
    }
    expect(after.accounts.map((a) => [a.address, a.balanceWei])).toStrictEqual([...expected].sort());
  });
}
