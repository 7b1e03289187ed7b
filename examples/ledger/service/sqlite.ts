import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { LedgerError } from "./errors.ts";
import { formatEth, MAX_WEI, parseEth } from "./money.ts";
import {
  type CheckedTransfer,
  checkQuery,
  checkTransfer,
  keyReused,
  normalizeAddress,
  sameTransfer,
} from "./requests.ts";
import { type TransactionRow, toAccount, toTransaction } from "./rows.ts";
import type {
  Account,
  LedgerOptions,
  LedgerService,
  MintRequest,
  Transaction,
  TransactionQuery,
  TransferRequest,
  TransferResult,
} from "./types.ts";

/** Balances and amounts are decimal integer strings (wei): SQLite integers stop at 2^63. */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  address TEXT PRIMARY KEY,
  balance TEXT NOT NULL CHECK (balance GLOB '[0-9]*' AND balance NOT GLOB '*[^0-9]*')
) STRICT;
CREATE TABLE IF NOT EXISTS transactions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('transfer', 'mint')),
  from_address TEXT REFERENCES accounts(address),
  to_address TEXT NOT NULL REFERENCES accounts(address),
  amount TEXT NOT NULL CHECK (amount GLOB '[1-9]*' AND amount NOT GLOB '*[^0-9]*'),
  sender_balance TEXT,
  created_at TEXT NOT NULL,
  idempotency_key TEXT UNIQUE,
  CHECK ((kind = 'mint') = (from_address IS NULL))
) STRICT;
CREATE INDEX IF NOT EXISTS transactions_from ON transactions(from_address, id);
CREATE INDEX IF NOT EXISTS transactions_to ON transactions(to_address, id);
`;

export interface SqliteLedgerOptions extends LedgerOptions {
  /** Database file; created with its folder when missing. */
  file: string;
  /** How long to wait for another connection's write lock, in ms. Default 30 000. */
  busyTimeoutMs?: number;
}

/**
 * The embedded ledger: one SQLite file in WAL mode with `synchronous = FULL`, so an
 * acknowledged transfer survives a crash. Each transfer runs in a `BEGIN IMMEDIATE`
 * transaction, which serialises writers across connections and processes.
 *
 * @example
 * const ledger = openSqliteLedger({ file: "data/ledger.sqlite", defaultSender: "alice" });
 * await ledger.transferEth({ toAddress: "bob", amount: "10" });
 */
export function openSqliteLedger(options: SqliteLedgerOptions): LedgerService {
  mkdirSync(path.dirname(path.resolve(options.file)), { recursive: true });
  const db = new Database(options.file, { timeout: options.busyTimeoutMs ?? 30_000 });
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  db.exec(SCHEMA);
  return new SqliteLedger(db, options);
}

class SqliteLedger implements LedgerService {
  readonly #db: Database.Database;
  readonly #options: LedgerOptions;
  readonly #now: () => Date;
  readonly #sql;

  constructor(db: Database.Database, options: LedgerOptions) {
    this.#db = db;
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#sql = {
      account: db.prepare<[string], { address: string; balance: string }>(
        "SELECT address, balance FROM accounts WHERE address = ?",
      ),
      accounts: db.prepare<[], { address: string; balance: string }>(
        "SELECT address, balance FROM accounts ORDER BY address",
      ),
      setBalance: db.prepare<[string, string]>(
        "INSERT INTO accounts (address, balance) VALUES (?, ?) ON CONFLICT (address) DO UPDATE SET balance = excluded.balance",
      ),
      insertTx: db.prepare<
        [string, string | null, string, string, string | null, string, string | null],
        TransactionRow
      >(
        `INSERT INTO transactions (kind, from_address, to_address, amount, sender_balance, created_at, idempotency_key)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      ),
      txById: db.prepare<[number], TransactionRow>("SELECT * FROM transactions WHERE id = ?"),
      txByKey: db.prepare<[string], TransactionRow>("SELECT * FROM transactions WHERE idempotency_key = ?"),
      recent: db.prepare<[number, number], TransactionRow>(
        "SELECT * FROM transactions WHERE id < ? ORDER BY id DESC LIMIT ?",
      ),
      recentOf: db.prepare<[number, string, string, number], TransactionRow>(
        "SELECT * FROM transactions WHERE id < ? AND (from_address = ? OR to_address = ?) ORDER BY id DESC LIMIT ?",
      ),
    };
  }

  async getBalance(address: string): Promise<Account> {
    const canonical = normalizeAddress(address);
    const row = this.#sql.account.get(canonical);
    return row ? toAccount(row) : { address: canonical, balanceWei: 0n };
  }

  async transferEth(request: TransferRequest): Promise<TransferResult> {
    const checked = checkTransfer(request, this.#options);
    return this.#db.transaction(() => this.#transfer(checked)).immediate();
  }

  #transfer(request: CheckedTransfer): TransferResult {
    const { from, to, amountWei, idempotencyKey } = request;
    if (idempotencyKey !== null) {
      const row = this.#sql.txByKey.get(idempotencyKey);
      if (row) {
        const first = toTransaction(row);
        if (!sameTransfer(first, request)) throw keyReused(idempotencyKey, first);
        return { transaction: first, replayed: true };
      }
    }
    const sender = this.#sql.account.get(from);
    if (!sender) {
      throw new LedgerError(
        "UNKNOWN_SENDER",
        `sender "${from}" has no account; list_accounts shows who exists`,
      );
    }
    const senderBalance = BigInt(sender.balance);
    if (senderBalance < amountWei) {
      throw new LedgerError(
        "INSUFFICIENT_FUNDS",
        `insufficient funds: "${from}" has ${formatEth(senderBalance)} ETH, the transfer needs ${formatEth(amountWei)} ETH`,
      );
    }
    const recipient = this.#sql.account.get(to);
    const after = senderBalance - amountWei;
    this.#sql.setBalance.run(from, after.toString());
    this.#sql.setBalance.run(to, ((recipient ? BigInt(recipient.balance) : 0n) + amountWei).toString());
    const row = this.#sql.insertTx.get(
      "transfer",
      from,
      to,
      amountWei.toString(),
      after.toString(),
      this.#now().toISOString(),
      idempotencyKey,
    )!;
    return { transaction: toTransaction(row), replayed: false };
  }

  async listTransactions(query: TransactionQuery = {}): Promise<Transaction[]> {
    const { address, limit, beforeId } = checkQuery(query);
    const rows =
      address === null
        ? this.#sql.recent.all(beforeId, limit)
        : this.#sql.recentOf.all(beforeId, address, address, limit);
    return rows.map(toTransaction);
  }

  async getTransaction(id: number): Promise<Transaction | undefined> {
    const row = this.#sql.txById.get(id);
    return row ? toTransaction(row) : undefined;
  }

  async listAccounts(): Promise<Account[]> {
    return this.#sql.accounts.all().map(toAccount);
  }

  async mint(request: MintRequest): Promise<Transaction> {
    const address = normalizeAddress(request.address);
    const amountWei = parseEth(request.amount);
    const mint = () => {
      const supply = this.#sql.accounts.all().reduce((sum, row) => sum + BigInt(row.balance), 0n);
      if (supply + amountWei > MAX_WEI) {
        throw new LedgerError("SUPPLY_LIMIT", "minting this much would take the total supply above uint256");
      }
      const current = this.#sql.account.get(address);
      this.#sql.setBalance.run(address, ((current ? BigInt(current.balance) : 0n) + amountWei).toString());
      const row = this.#sql.insertTx.get(
        "mint",
        null,
        address,
        amountWei.toString(),
        null,
        this.#now().toISOString(),
        null,
      )!;
      return toTransaction(row);
    };
    return this.#db.transaction(mint).immediate();
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}
