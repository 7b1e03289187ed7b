import type { LedgerService, Transaction } from "./service/index.ts";

/** Transactions read per page while a statement is built. */
const PAGE = 1000;

/** An account's statement over a period, computed from the transaction log alone. */
export interface StatementTotals {
  opening: bigint;
  closing: bigint;
  totalIn: bigint;
  totalOut: bigint;
  /** The period's transactions, oldest first. */
  transactions: Transaction[];
  /** Transactions read (the account's whole history up to the end of the period). */
  scanned: number;
}

/**
 * Reads `address`'s history newest first, a page at a time, and sums it: the opening balance is
 * what every transaction before `from` left, the closing balance adds the period's `[from, to)`.
 * Only reads, so a run cut short (a replica killed) may simply run again.
 *
 * @example
 * const s = await buildStatement({ ledger, address: "bob", from: new Date(0), to: new Date() });
 * formatEth(s.closing); // bob's balance now, from his transactions alone
 */
export async function buildStatement(options: {
  ledger: LedgerService;
  address: string;
  from: Date;
  to: Date;
  signal?: AbortSignal;
  /** Called after each page with the number of transactions read so far. */
  onPage?: (scanned: number) => Promise<void>;
}): Promise<StatementTotals> {
  const { ledger, from, to, signal, onPage } = options;
  const address = options.address.toLowerCase();
  const totals: StatementTotals = {
    opening: 0n,
    closing: 0n,
    totalIn: 0n,
    totalOut: 0n,
    transactions: [],
    scanned: 0,
  };
  let beforeId: number | undefined;
  for (;;) {
    signal?.throwIfAborted();
    const page = await ledger.listTransactions({ address, limit: PAGE, beforeId });
    for (const tx of page) {
      const at = Date.parse(tx.createdAt);
      if (at >= to.getTime()) continue;
      const incoming = tx.to === address ? tx.amountWei : 0n;
      const outgoing = tx.from === address ? tx.amountWei : 0n;
      if (at < from.getTime()) {
        totals.opening += incoming - outgoing;
        continue;
      }
      totals.totalIn += incoming;
      totals.totalOut += outgoing;
      totals.transactions.push(tx);
    }
    totals.scanned += page.length;
    await onPage?.(totals.scanned);
    if (page.length < PAGE) break;
    beforeId = page.at(-1)!.id;
  }
  totals.transactions.reverse();
  totals.closing = totals.opening + totals.totalIn - totals.totalOut;
  return totals;
}
