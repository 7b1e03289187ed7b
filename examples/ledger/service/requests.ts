import { LedgerError } from "./errors.ts";
import { parseEth } from "./money.ts";
import type { LedgerOptions, TransactionQuery, TransferRequest } from "./types.ts";

/** Demo names ("alice") and hex addresses ("0xAbC…"); compared in lower case. */
const ADDRESS = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_KEY_LENGTH = 200;
export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 1000;

/**
 * Checks an address and returns its canonical (lower-case) form.
 *
 * @example
 * normalizeAddress("Bob"); // "bob"
 */
export function normalizeAddress(address: unknown, role = "address"): string {
  if (typeof address !== "string" || !ADDRESS.test(address)) {
    const shown = typeof address === "string" ? JSON.stringify(address.slice(0, 70)) : typeof address;
    throw new LedgerError(
      "INVALID_ADDRESS",
      `${role} ${shown} is not an address; use 1–64 letters, digits, "_" or "-" (e.g. "bob" or "0x52908400098527886e0f7030069857d2e4169ee7")`,
    );
  }
  return address.toLowerCase();
}

/** A transfer after every check that needs no database: canonical addresses, amount in wei. */
export interface CheckedTransfer {
  from: string;
  to: string;
  amountWei: bigint;
  idempotencyKey: string | null;
}

export function checkTransfer(request: TransferRequest, options: LedgerOptions): CheckedTransfer {
  const to = normalizeAddress(request.toAddress, "to_address");
  const amountWei = parseEth(request.amount);
  const sender = request.sender ?? options.defaultSender;
  if (sender === undefined) {
    throw new LedgerError("INVALID_ARGUMENT", "sender is required: name the account that pays");
  }
  const from = normalizeAddress(sender, "sender");
  if (from === to) {
    throw new LedgerError("SAME_ACCOUNT", `sender and recipient are both "${from}"; send to another account`);
  }
  const key = request.idempotencyKey;
  if (key !== undefined && (typeof key !== "string" || key.length === 0 || key.length > MAX_KEY_LENGTH)) {
    throw new LedgerError(
      "INVALID_ARGUMENT",
      `idempotency_key must be a string of 1–${MAX_KEY_LENGTH} characters`,
    );
  }
  return { from, to, amountWei, idempotencyKey: key ?? null };
}

export interface CheckedQuery {
  address: string | null;
  limit: number;
  /** Exclusive upper bound of ids; `Number.MAX_SAFE_INTEGER` when absent. */
  beforeId: number;
}

export function checkQuery(query: TransactionQuery): CheckedQuery {
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new LedgerError(
      "INVALID_ARGUMENT",
      `limit must be an integer from 1 to ${MAX_LIMIT}, got ${limit}`,
    );
  }
  const beforeId = query.beforeId ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(beforeId) || beforeId < 1) {
    throw new LedgerError("INVALID_ARGUMENT", `before_id must be a positive integer, got ${beforeId}`);
  }
  const address = query.address === undefined ? null : normalizeAddress(query.address);
  return { address, limit, beforeId };
}

/** The error for a key already used by a different transfer. */
export function keyReused(
  key: string,
  first: { from: string | null; to: string; amountWei: bigint },
): LedgerError {
  return new LedgerError(
    "IDEMPOTENCY_KEY_REUSED",
    `idempotency_key "${key}" was already used for another transfer (${first.from ?? "mint"} → ${first.to}); use a new key for a new transfer`,
  );
}

/** True when a stored transaction is the transfer a request with the same key describes. */
export function sameTransfer(
  stored: { kind: string; from: string | null; to: string; amountWei: bigint },
  request: CheckedTransfer,
): boolean {
  return (
    stored.kind === "transfer" &&
    stored.from === request.from &&
    stored.to === request.to &&
    stored.amountWei === request.amountWei
  );
}
