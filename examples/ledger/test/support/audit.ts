import type { Account, LedgerService, Transaction } from "../../service/index.ts";

export interface Audit {
  accounts: Account[];
  transactions: Transaction[];
  supply: bigint;
  /** Problems found; empty when the ledger is consistent. */
  problems: string[];
}

/**
 * Reads the whole ledger and checks it against itself: every balance equals the sum of its
 * mints and transfers in the transaction log, no balance is negative, and the total supply
 * equals everything ever minted.
 */
export async function auditLedger(ledger: LedgerService): Promise<Audit> {
  const transactions: Transaction[] = [];
  for (let beforeId: number | undefined; ; ) {
    const page = await ledger.listTransactions({ limit: 1000, beforeId });
    transactions.push(...page);
    if (page.length < 1000) break;
    beforeId = page[page.length - 1]!.id;
  }
  transactions.reverse();
  const accounts = await ledger.listAccounts();
  const expected = new Map<string, bigint>();
  const add = (address: string, delta: bigint) =>
    expected.set(address, (expected.get(address) ?? 0n) + delta);
  let minted = 0n;
  const problems: string[] = [];
  for (const tx of transactions) {
    add(tx.to, tx.amountWei);
    if (tx.kind === "mint") minted += tx.amountWei;
    else if (tx.from === null) problems.push(`transfer ${tx.id} has no sender`);
    else {
      add(tx.from, -tx.amountWei);
      if (expected.get(tx.from)! !== tx.senderBalanceWei)
        problems.push(
          `transfer ${tx.id}: recorded sender balance ${tx.senderBalanceWei} ≠ log ${expected.get(tx.from)}`,
        );
    }
  }
  let supply = 0n;
  for (const account of accounts) {
    supply += account.balanceWei;
    if (account.balanceWei < 0n)
      problems.push(`${account.address} has a negative balance ${account.balanceWei}`);
    const fromLog = expected.get(account.address) ?? 0n;
    if (fromLog !== account.balanceWei)
      problems.push(`${account.address}: balance ${account.balanceWei} ≠ transaction log ${fromLog}`);
    expected.delete(account.address);
  }
  for (const [address, amount] of expected) {
    if (amount !== 0n) problems.push(`${address} is in the log (${amount}) but has no account`);
  }
  if (supply !== minted) problems.push(`total supply ${supply} ≠ minted ${minted}`);
  return { accounts, transactions, supply, problems };
}
