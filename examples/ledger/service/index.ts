export { DEMO_ACCOUNTS, seedDemoAccounts } from "./demo.ts";
export { LedgerError, type LedgerErrorCode } from "./errors.ts";
export { DECIMALS, formatEth, MAX_WEI, parseEth, WEI_PER_ETH } from "./money.ts";
export { DEFAULT_DATABASE, type OpenLedgerOptions, openLedger } from "./open.ts";
export { openPostgresLedger, type PostgresLedgerOptions } from "./postgres.ts";
export { normalizeAddress } from "./requests.ts";
export { openSqliteLedger, type SqliteLedgerOptions } from "./sqlite.ts";
export type {
  Account,
  LedgerOptions,
  LedgerService,
  MintRequest,
  Transaction,
  TransactionQuery,
  TransferRequest,
  TransferResult,
} from "./types.ts";
