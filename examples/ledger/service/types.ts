/**
 * The ledger's service interface (the seed's `LedgerService` Protocol). Tools receive an
 * implementation; SQLite and PostgreSQL provide one each. Amounts go in as decimal ETH
 * strings (parsed exactly) and come out as wei (`bigint`); nothing is ever a float.
 */
export interface LedgerService {
  /** Balance of an address; an address that never received anything has balance 0. */
  getBalance(address: string): Promise<Account>;
  /**
   * Moves `amount` ETH from `sender` (or the default sender) to `toAddress` in one database
   * transaction: balance check, debit, credit and transaction record. A repeated
   * `idempotencyKey` returns the first result (`replayed: true`) and moves nothing.
   * Throws `LedgerError` for bad input, an unknown sender or insufficient funds.
   */
  transferEth(request: TransferRequest): Promise<TransferResult>;
  /** Most recent transactions first, optionally only those from or to `address`. */
  listTransactions(query?: TransactionQuery): Promise<Transaction[]>;
  /** One transaction by id, or `undefined`. */
  getTransaction(id: number): Promise<Transaction | undefined>;
  /** Every account with its balance, by address. */
  listAccounts(): Promise<Account[]>;
  /** Creates `amount` ETH on `address` (the demo faucet); recorded as a `mint` transaction. */
  mint(request: MintRequest): Promise<Transaction>;
  /** Releases the database connection(s). */
  close(): Promise<void>;
}

export interface TransferRequest {
  /** Recipient; created with balance 0 on its first credit. */
  toAddress: string;
  /** Decimal ETH amount, e.g. "10" or "0.000000000000000001"; at most 18 decimals. */
  amount: string;
  /** Paying account; defaults to the service's `defaultSender`. It must exist. */
  sender?: string | undefined;
  /** Retrying with the same key and the same transfer returns the first result. */
  idempotencyKey?: string | undefined;
}

export interface TransferResult {
  transaction: Transaction;
  /** True when the idempotency key was seen before and this is the first call's result. */
  replayed: boolean;
}

export interface TransactionQuery {
  /** Only transactions from or to this address. */
  address?: string | undefined;
  /** 1–1000, default 20. */
  limit?: number | undefined;
  /** Only transactions older than this id (the cursor for the next page). */
  beforeId?: number | undefined;
}

export interface MintRequest {
  address: string;
  amount: string;
}

export interface Account {
  address: string;
  balanceWei: bigint;
}

export interface Transaction {
  id: number;
  kind: "transfer" | "mint";
  /** `null` for mints. */
  from: string | null;
  to: string;
  amountWei: bigint;
  /** Sender's balance right after a transfer; `null` for mints. */
  senderBalanceWei: bigint | null;
  /** ISO 8601 timestamp. */
  createdAt: string;
  idempotencyKey: string | null;
}

/** Options shared by the implementations. */
export interface LedgerOptions {
  /** Sender of transfers that name none (the demo user). Without it, `sender` is required. */
  defaultSender?: string | undefined;
  /** Clock for `createdAt` (tests pin it). */
  now?: () => Date;
}
