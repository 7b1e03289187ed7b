import { expect, it } from "vitest";
import type { TransferReceipt } from "../../tools.ts";
import { type Audit, auditLedger } from "./audit.ts";
import { createRandom, randomAmount } from "./random.ts";
import { forEachConcurrently } from "./served.ts";
import { LOAD_ACCOUNTS, type ServedContext } from "./served-context.ts";

/** One transfer as a load test sends it (the `transfer_eth` arguments). */
export interface TransferArgs {
  sender: string;
  to_address: string;
  amount: string;
  idempotency_key: string;
}

/** `count` random transfers between the load accounts, keyed `<prefix>-<i>`. */
export function randomTransfers(seed: number, count: number, prefix: string): TransferArgs[] {
  const random = createRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const sender = random.pick(LOAD_ACCOUNTS);
    const others = LOAD_ACCOUNTS.filter((a) => a !== sender);
    return {
      sender,
      to_address: random.pick(others),
      amount: randomAmount(random, 20),
      idempotency_key: `${prefix}-${i}`,
    };
  });
}

/** Acknowledged receipts that the audited ledger does not hold exactly as acknowledged. */
export function missingAcks(audit: Audit, acks: Iterable<TransferReceipt>): TransferReceipt[] {
  const stored = new Map(audit.transactions.map((t) => [t.id, t]));
  return [...acks].filter((a) => {
    const t = stored.get(a.tx_id);
    return (
      !t ||
      t.from !== a.from ||
      t.to !== a.to ||
      `${t.amountWei}` !== a.amount_wei ||
      t.idempotencyKey !== a.idempotency_key
    );
  });
}

/** Calls in flight on each server process during the 2,000 transfers. */
const IN_FLIGHT = 250;

/** A refusal the random load may meet: the sender ran dry. Anything else fails the test. */
export const INSUFFICIENT = /^insufficient funds: /;

export function servedLoadContract(ctx: ServedContext): void {
  it("conserves supply under 2,000 random concurrent transfers between 20 accounts", async () => {
    const seed = Date.now() % 1_000_000;
    const before = await auditLedger(ctx.ledger);
    const transfers = randomTransfers(seed, 2000, `load-${seed}`);
    const acks: TransferReceipt[] = [];
    const refusals: string[] = [];
    // Half over each server process, 250 calls in flight on each (more on one stdio pipe only makes
    // the SDK's client transport queue its writes).
    const halves = [0, 1].map((half) => transfers.filter((_, i) => i % 2 === half));
    await Promise.all(
      [ctx.stdio, ctx.http].map((served, half) =>
        forEachConcurrently(
          halves[half]!,
          async (args) => {
            const result = await served.ledger.transferEth(args);
            if (result.ok) acks.push(result.value);
            else refusals.push(result.message);
          },
          { limit: IN_FLIGHT },
        ),
      ),
    );
    const context = `seed ${seed}`;
    expect(
      refusals.filter((m) => !INSUFFICIENT.test(m)),
      context,
    ).toStrictEqual([]);
    expect(acks.length, context).toBeGreaterThan(1000);
    expect(acks.filter((a) => a.replayed)).toStrictEqual([]);

    const after = await auditLedger(ctx.ledger);
    expect(after.problems, context).toStrictEqual([]);
    expect(after.supply).toBe(before.supply);
    expect(missingAcks(after, acks), context).toStrictEqual([]);
    expect(after.transactions.filter((t) => t.idempotencyKey?.startsWith(`load-${seed}-`))).toHaveLength(
      acks.length,
    );
    const expected = new Map(before.accounts.map((a) => [a.address, a.balanceWei]));
    for (const a of acks) {
      expected.set(a.from!, expected.get(a.from!)! - BigInt(a.amount_wei));
      expected.set(a.to, expected.get(a.to)! + BigInt(a.amount_wei));
    }
    expect(after.accounts.map((a) => [a.address, a.balanceWei])).toStrictEqual(
      [...expected].sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    expect(await ctx.db.integrity()).toStrictEqual([]);
  });
}
