import pg from "pg";
import { LedgerError } from "./errors.ts";
import { formatEth, MAX_WEI, parseEth } from "./money.ts";
import { createTables, withTransaction } from "./postgres-tables.ts";
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

/** Serialises mints, whose supply check reads every balance. */
const MINT_LOCK = 7_340_002;

export interface PostgresLedgerOptions extends LedgerOptions {
  /** e.g. `postgres://user@127.0.0.1:5432/db`. */
  connectionString: string;
  /** Schema holding the tables (created when missing). Default `public`. */
  schema?: string;
  /** Pool size. Default 10. */
  maxConnections?: number;
}

/**
 * The ledger on PostgreSQL, for deployments that outgrow one file. Balances are
 * `NUMERIC(78, 0)` wei. A transfer locks both account rows in address order (so
 * concurrent transfers cannot deadlock) and takes a transaction-scoped advisory lock
 * on its idempotency key, so concurrent calls with one key run one after another.
 *
 * @example
 * const ledger = await openPostgresLedger({ connectionString: process.env.LEDGER_PG_URL! });
 */
export async function openPostgresLedger(options: PostgresLedgerOptions): Promise<LedgerService> {
  const schema = options.schema ?? "public";
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new LedgerError("INVALID_ARGUMENT", `schema "${schema}" must be a lower-case SQL identifier`);
  }
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.maxConnections ?? 10,
    options: `-c search_path=${schema}`,
  });
  // An idle connection the server ended (a restart, a failover, `DROP DATABASE … WITH (FORCE)`) is
  // an 'error' event of the pool, which without a listener ends the process; the pool drops that
  // connection and the next query opens another (a query in flight fails with its own error).
  pool.on("error", () => {});
  try {
    await createTables(pool, schema);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return new PostgresLedger(pool, options);
}

class PostgresLedger implements LedgerService {
  readonly #pool: pg.Pool;
  readonly #options: LedgerOptions;
  readonly #now: () => Date;

  constructor(pool: pg.Pool, options: LedgerOptions) {
    this.#pool = pool;
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  async getBalance(address: string): Promise<Account> {
    const canonical = normalizeAddress(address);
    const { rows } = await this.#pool.query("SELECT address, balance FROM accounts WHERE address = $1", [
      canonical,
    ]);
    return rows[0] ? toAccount(rows[0]) : { address: canonical, balanceWei: 0n };
  }

  async transferEth(request: TransferRequest): Promise<TransferResult> {
    const checked = checkTransfer(request, this.#options);
    return withTransaction(this.#pool, (client) => this.#transfer(client, checked));
  }

  async #transfer(client: pg.PoolClient, request: CheckedTransfer): Promise<TransferResult> {
    const { from, to, amountWei, idempotencyKey } = request;
    if (idempotencyKey !== null) {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [idempotencyKey]);
      const { rows } = await client.query<TransactionRow>(
        "SELECT * FROM transactions WHERE idempotency_key = $1",
        [idempotencyKey],
      );
      if (rows[0]) {
        const first = toTransaction(rows[0]);
        if (!sameTransfer(first, request)) throw keyReused(idempotencyKey, first);
        return { transaction: first, replayed: true };
      }
    }
    // Make sure the recipient row exists, then lock both rows in address order.
    await client.query(
      "INSERT INTO accounts (address, balance) VALUES ($1, 0) ON CONFLICT (address) DO NOTHING",
      [to],
    );
    const { rows: locked } = await client.query<{ address: string; balance: string }>(
      "SELECT address, balance FROM accounts WHERE address = ANY($1::text[]) ORDER BY address FOR UPDATE",
      [[from, to]],
    );
    const sender = locked.find((row) => row.address === from);
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
    const amount = amountWei.toString();
    const after = senderBalance - amountWei;
    await client.query("UPDATE accounts SET balance = $2::numeric WHERE address = $1", [
      from,
      after.toString(),
    ]);
    await client.query("UPDATE accounts SET balance = balance + $2::numeric WHERE address = $1", [
      to,
      amount,
    ]);
    const { rows } = await client.query<TransactionRow>(
      `INSERT INTO transactions (kind, from_address, to_address, amount, sender_balance, created_at, idempotency_key)
       VALUES ('transfer', $1, $2, $3, $4, $5, $6) RETURNING *`,
      [from, to, amount, after.toString(), this.#now(), idempotencyKey],
    );
    return { transaction: toTransaction(rows[0]!), replayed: false };
  }

  async listTransactions(query: TransactionQuery = {}): Promise<Transaction[]> {
    const { address, limit, beforeId } = checkQuery(query);
    const { rows } = await this.#pool.query<TransactionRow>(
      `SELECT * FROM transactions WHERE id < $1 AND ($2::text IS NULL OR from_address = $2 OR to_address = $2)
       ORDER BY id DESC LIMIT $3`,
      [beforeId, address, limit],
    );
    return rows.map(toTransaction);
  }

  async getTransaction(id: number): Promise<Transaction | undefined> {
    if (!Number.isSafeInteger(id)) return undefined;
    const { rows } = await this.#pool.query<TransactionRow>("SELECT * FROM transactions WHERE id = $1", [id]);
    return rows[0] ? toTransaction(rows[0]) : undefined;
  }

  async listAccounts(): Promise<Account[]> {
    const { rows } = await this.#pool.query("SELECT address, balance FROM accounts ORDER BY address");
    return rows.map(toAccount);
  }

  async mint(request: MintRequest): Promise<Transaction> {
    const address = normalizeAddress(request.address);
    const amountWei = parseEth(request.amount);
    return withTransaction(this.#pool, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock($1)", [MINT_LOCK]);
      const { rows: supply } = await client.query<{ total: string }>(
        "SELECT COALESCE(SUM(balance), 0)::text AS total FROM accounts",
      );
      if (BigInt(supply[0]!.total) + amountWei > MAX_WEI) {
        throw new LedgerError("SUPPLY_LIMIT", "minting this much would take the total supply above uint256");
      }
      const amount = amountWei.toString();
      await client.query(
        `INSERT INTO accounts (address, balance) VALUES ($1, $2::numeric)
         ON CONFLICT (address) DO UPDATE SET balance = accounts.balance + excluded.balance`,
        [address, amount],
      );
      const { rows } = await client.query<TransactionRow>(
        `INSERT INTO transactions (kind, from_address, to_address, amount, sender_balance, created_at, idempotency_key)
         VALUES ('mint', NULL, $1, $2, NULL, $3, NULL) RETURNING *`,
        [address, amount, this.#now()],
      );
      return toTransaction(rows[0]!);
    });
  }

  async close(): Promise<void> {
    if (!this.#pool.ended) await this.#pool.end();
  }
}
