import { describe, it } from "vitest";
import { PG_MISSING, PG_SKIP, PG_URL, postgresFixture } from "./support/backends.ts";
import { ledgerContract } from "./support/contract.ts";

if (PG_URL) ledgerContract("PostgreSQL", postgresFixture);
else {
  // Without a server the suite fails with instructions; LEDGER_PG_SKIP=1 shows it as skipped instead.
  describe.skipIf(PG_SKIP)("LedgerService contract: PostgreSQL", () => {
    it("has a PostgreSQL server to run against (LEDGER_PG_URL)", () => {
      throw new Error(PG_MISSING);
    });
  });
}
