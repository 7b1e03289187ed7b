import { describe } from "vitest";
import { concurrencyContract } from "./contract-concurrency.ts";
import { transferContract } from "./contract-transfers.ts";
import { type LedgerFixture, useContractLedger } from "./fixture.ts";

export type { LedgerFixture } from "./fixture.ts";

/** The behaviour every `LedgerService` implementation must have, run against one backend. */
export function ledgerContract(backend: string, createFixture: () => Promise<LedgerFixture>): void {
  describe(`LedgerService contract: ${backend}`, () => {
    const ctx = useContractLedger(createFixture);
    transferContract(ctx);
    concurrencyContract(ctx);
  });
}
