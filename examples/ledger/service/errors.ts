/** Stable codes of the ledger's refusals; each message says what was wrong and how to fix it. */
export type LedgerErrorCode =
  | "INVALID_AMOUNT"
  | "INVALID_ADDRESS"
  | "INVALID_ARGUMENT"
  | "SAME_ACCOUNT"
  | "UNKNOWN_SENDER"
  | "INSUFFICIENT_FUNDS"
  | "SUPPLY_LIMIT"
  | "IDEMPOTENCY_KEY_REUSED";

/**
 * A request the ledger refuses. Nothing has moved when it is thrown: every check runs
 * before or inside the transaction, which then rolls back.
 *
 * @example
 * try {
 *   await ledger.transferEth({ toAddress: "bob", amount: "1e3" });
 * } catch (error) {
 *   if (error instanceof LedgerError && error.code === "INVALID_AMOUNT") console.log(error.message);
 * }
 */
export class LedgerError extends Error {
  override readonly name = "LedgerError";

  constructor(
    readonly code: LedgerErrorCode,
    message: string,
  ) {
    super(message);
  }
}
