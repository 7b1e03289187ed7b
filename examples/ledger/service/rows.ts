import type { Account, Transaction } from "./types.ts";

/** A transaction row as both databases return it (amounts as decimal integer strings). */
export interface TransactionRow {
  id: number | string;
  kind: string;
  from_address: string | null;
  to_address: string;
  amount: string;
  sender_balance: string | null;
  created_at: string | Date;
  idempotency_key: string | null;
}

export function toTransaction(row: TransactionRow): Transaction {
  return {
    id: Number(row.id),
    kind: row.kind === "mint" ? "mint" : "transfer",
    from: row.from_address,
    to: row.to_address,
    amountWei: BigInt(row.amount),
    senderBalanceWei: row.sender_balance === null ? null : BigInt(row.sender_balance),
    createdAt: row.created_at instanceof Date ? row.created_at.toISOString() : row.created_at,
    idempotencyKey: row.idempotency_key,
  };
}

export function toAccount(row: { address: string; balance: string }): Account {
  return { address: row.address, balanceWei: BigInt(row.balance) };
}
