import {
  type Format,
  type Int,
  type Maximum,
  type MaxLength,
  type Minimum,
  type MinLength,
  type Pattern,
  type ToolContext,
  ToolError,
} from "@mcp-gen/runtime";
import {
  type Account,
  formatEth,
  LedgerError,
  type LedgerService,
  type OpenLedgerOptions,
  openLedger,
  parseEth,
  seedDemoAccounts,
  type Transaction,
} from "./service/index.ts";
import { buildStatement } from "./statement.ts";

/** An account: a demo name such as "bob" or a hex address; case-insensitive. */
export type Address = string & Pattern<"^[A-Za-z0-9_-]{1,64}$">;
/** A positive decimal ETH amount with at most 18 decimals, e.g. "10" or "0.25" (no exponent, no sign). */
export type EthAmount = string & Pattern<"^[0-9]+(\\.[0-9]{1,18})?$"> & MaxLength<100>;
/** A caller-chosen key that makes a retried transfer safe. */
export type IdempotencyKey = string & MinLength<1> & MaxLength<200>;

/** The faucet's limit per call, in ETH. */
export const FAUCET_LIMIT = "100";

/** An account's balance. */
export interface Balance {
  address: string;
  /** Decimal ETH, exact. */
  balance: string;
  /** The same balance in wei (10^-18 ETH), as a decimal integer string. */
  balance_wei: string;
}

/** One ledger transaction. */
export interface TransactionInfo {
  tx_id: Int;
  /** "transfer", or "mint" for faucet payouts. */
  kind: "transfer" | "mint";
  /** Paying account; null for mints. */
  from: string | null;
  to: string;
  /** Decimal ETH, exact. */
  amount: string;
  /** The amount in wei, as a decimal integer string. */
  amount_wei: string;
  /** ISO 8601 time of the transaction. */
  created_at: string;
}

/** The receipt of a transfer. */
export type TransferReceipt = TransactionInfo & {
  /** Sender's balance right after the transfer, decimal ETH. */
  sender_balance: string;
  idempotency_key: string | null;
  /** True when the idempotency key was used before: this is the first call's receipt and nothing moved now. */
  replayed: boolean;
};

/** An account's statement over a period. */
export interface Statement {
  address: string;
  /** Start of the period (inclusive), ISO 8601. */
  from: string;
  /** End of the period (exclusive), ISO 8601. */
  to: string;
  /** Balance at `from`, decimal ETH. */
  opening_balance: string;
  /** Balance at `to`, decimal ETH: opening + total_in − total_out. */
  closing_balance: string;
  /** ETH received in the period. */
  total_in: string;
  /** ETH sent in the period. */
  total_out: string;
  /** The period's transactions, oldest first. */
  transactions: TransactionInfo[];
}

/**
 * The ledger's MCP tools. Each public method is a tool; the class is constructed with the
 * service it should act on (SQLite, PostgreSQL, or a test double). A `LedgerError` reaches
 * the caller as a `ToolError`, so its message is sent even when a server masks errors.
 *
 * @example
 * const tools = new LedgerTools(await openLedger({ defaultSender: "alice" }));
 * await tools.transfer_eth("bob", "10");
 */
export class LedgerTools {
  /** The service the tools act on (whoever created it closes it). */
  readonly ledger: LedgerService;

  constructor(ledger: LedgerService) {
    this.ledger = ledger;
  }

  /**
   * What `mcp-gen serve ledger` calls: opens the database of `$LEDGER_DB` (default: the
   * SQLite file under `examples/ledger/data/`), with `$LEDGER_DEFAULT_SENDER` (default
   * "alice") as the user's account, and funds the demo accounts on first use.
   *
   * @example
   * const tools = await LedgerTools.create({ database: "/tmp/demo.sqlite" });
   */
  static async create(options: OpenLedgerOptions = {}): Promise<LedgerTools> {
    const ledger = await openLedger({
      defaultSender: process.env.LEDGER_DEFAULT_SENDER || "alice",
      ...options,
    });
    await seedDemoAccounts(ledger);
    return new LedgerTools(ledger);
  }

  /**
   * Get the ETH balance of an account.
   *
   * @param address Account name (e.g. "bob") or hex address
   * @readOnly
   * @idempotent
   * @openWorld false
   */
  async get_balance(address: Address): Promise<Balance> {
    return balanceInfo(await refusals(this.ledger.getBalance(address)));
  }

  /**
   * Send ETH from one account to another. Moves money: ask the user before calling.
   * Amounts are exact decimal strings ("10", "0.5"); the sender must have enough ETH.
   * Pass an idempotency_key when a call may be retried: a repeated key returns the
   * first receipt and moves nothing.
   *
   * @param to_address Recipient account name or hex address
   * @param amount Amount of ETH as a decimal string, at most 18 decimals, e.g. "10" or "0.25"
   * @param sender Paying account; defaults to the user's own account
   * @param idempotency_key Unique key of this transfer, reused only for retries of the same transfer
   * @destructive
   * @openWorld false
   */
  async transfer_eth(
    to_address: Address,
    amount: EthAmount,
    sender?: Address,
    idempotency_key?: IdempotencyKey,
  ): Promise<TransferReceipt> {
    const { transaction, replayed } = await refusals(
      this.ledger.transferEth({ toAddress: to_address, amount, sender, idempotencyKey: idempotency_key }),
    );
    return {
      ...transactionInfo(transaction),
      sender_balance: formatEth(transaction.senderBalanceWei ?? 0n),
      idempotency_key: transaction.idempotencyKey,
      replayed,
    };
  }

  /**
   * List recent transactions, newest first.
   *
   * @param address Only transactions from or to this account
   * @param limit How many transactions to return
   * @param before_id Only transactions older than this tx_id (to page back)
   * @readOnly
   * @idempotent
   * @openWorld false
   */
  async list_transactions(
    address?: Address,
    limit: Int & Minimum<1> & Maximum<100> = 20,
    before_id?: Int & Minimum<1>,
  ): Promise<{ transactions: TransactionInfo[] }> {
    const transactions = await refusals(
      this.ledger.listTransactions({ address, limit, beforeId: before_id }),
    );
    return { transactions: transactions.map(transactionInfo) };
  }

  /**
   * List every account with its balance.
   *
   * @readOnly
   * @idempotent
   * @openWorld false
   */
  async list_accounts(): Promise<{ accounts: Balance[] }> {
    return { accounts: (await this.ledger.listAccounts()).map(balanceInfo) };
  }

  /**
   * Export an account's statement for a period: opening and closing balance, ETH in and out,
   * and every transaction of the period, oldest first. It reads the account's whole history,
   * so it runs as a task when the client supports tasks (follow it until its result is ready).
   *
   * @param address Account name or hex address
   * @param from Start of the period (inclusive), ISO 8601 date-time, e.g. "2026-01-01T00:00:00Z"
   * @param to End of the period (exclusive), ISO 8601 date-time; default: now
   * @task
   * @readOnly
   * @idempotent
   * @openWorld false
   */
  async export_statement(
    address: Address,
    from: string & Format<"date-time">,
    ctx: ToolContext,
    to?: string & Format<"date-time">,
  ): Promise<Statement> {
    const start = new Date(from);
    const end = to === undefined ? new Date() : new Date(to);
    if (!(start.getTime() < end.getTime())) {
      throw new ToolError(
        `"from" (${from}) must be before "to" (${end.toISOString()}): pass an earlier "from"`,
      );
    }
    const totals = await buildStatement({
      ledger: this.ledger,
      address,
      from: start,
      to: end,
      signal: ctx.signal,
      onPage: (scanned) => ctx.progress(scanned, undefined, `read ${scanned} transactions`),
    });
    return {
      address: address.toLowerCase(),
      from: start.toISOString(),
      to: end.toISOString(),
      opening_balance: formatEth(totals.opening),
      closing_balance: formatEth(totals.closing),
      total_in: formatEth(totals.totalIn),
      total_out: formatEth(totals.totalOut),
      transactions: totals.transactions.map(transactionInfo),
    };
  }

  /**
   * Demo faucet: create new ETH on an account, at most 100 ETH per call.
   *
   * @param address Account to fund; created if it does not exist
   * @param amount Amount of ETH as a decimal string
   * @openWorld false
   */
  async faucet(address: Address, amount: EthAmount = "10"): Promise<TransactionInfo> {
    const mint = async () => {
      if (parseEth(amount) > parseEth(FAUCET_LIMIT)) {
        throw new LedgerError("INVALID_AMOUNT", `the faucet gives at most ${FAUCET_LIMIT} ETH per call`);
      }
      return this.ledger.mint({ address, amount });
    };
    return transactionInfo(await refusals(mint()));
  }
}

/** The ledger's refusals are answers for the caller: they travel as `ToolError`s. */
async function refusals<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof LedgerError) throw new ToolError(error.message, { cause: error });
    throw error;
  }
}

function balanceInfo(account: Account): Balance {
  return {
    address: account.address,
    balance: formatEth(account.balanceWei),
    balance_wei: account.balanceWei.toString(),
  };
}

function transactionInfo(transaction: Transaction): TransactionInfo {
  return {
    tx_id: transaction.id,
    kind: transaction.kind,
    from: transaction.from,
    to: transaction.to,
    amount: formatEth(transaction.amountWei),
    amount_wei: transaction.amountWei.toString(),
    created_at: transaction.createdAt,
  };
}
