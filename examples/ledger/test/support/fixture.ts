import { afterEach, beforeEach, expect } from "vitest";
import { LedgerError, type LedgerOptions, type LedgerService } from "../../service/index.ts";

/** A fresh, empty database per test; `open` may be called several times (several connections). */
export interface LedgerFixture {
  open(options?: LedgerOptions): Promise<LedgerService>;
  dispose(): Promise<void>;
}

/** What the contract tests act on; `ledger` is replaced by `reopen`. */
export interface ContractContext {
  readonly ledger: LedgerService;
  /** Another connection to the same database (default sender alice, the pinned clock). */
  open(options?: LedgerOptions): Promise<LedgerService>;
  /** Closes `ledger` and opens it again. */
  reopen(): Promise<void>;
}

export const NOW = new Date("2025-01-02T03:04:05.678Z");
export const ETH = 10n ** 18n;

/**
 * Registers hooks that give every test a fresh database with alice (100 ETH) and bob (5 ETH),
 * and close every connection and remove the database afterwards.
 */
export function useContractLedger(createFixture: () => Promise<LedgerFixture>): ContractContext {
  let fixture: LedgerFixture;
  let ledger: LedgerService;
  const opened: LedgerService[] = [];
  const open = async (options: LedgerOptions = {}) => {
    const service = await fixture.open({ defaultSender: "alice", now: () => NOW, ...options });
    opened.push(service);
    return service;
  };

  beforeEach(async () => {
    fixture = await createFixture();
    ledger = await open();
    await ledger.mint({ address: "alice", amount: "100" });
    await ledger.mint({ address: "bob", amount: "5" });
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
    await fixture.dispose();
  });

  return {
    get ledger() {
      return ledger;
    },
    open,
    async reopen() {
      await ledger.close();
      ledger = await open();
    },
  };
}

/** Awaits a promise that must reject with a `LedgerError` of `code`, and returns the error. */
export async function expectRefusal(promise: Promise<unknown>, code: string): Promise<LedgerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LedgerError);
  expect((error as LedgerError).code).toBe(code);
  return error as LedgerError;
}
