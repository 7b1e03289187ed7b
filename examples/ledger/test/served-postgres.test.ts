import { describe, it } from "vitest";
import { PG_MISSING, PG_SKIP, PG_URL, postgresDatabase } from "./support/backends.ts";
import { servedLedgerContract } from "./support/served-contract.ts";

if (PG_URL) servedLedgerContract("PostgreSQL", postgresDatabase);
else {
  // Without a server the suite fails with instructions; LEDGER_PG_SKIP=1 shows it as skipped instead.
  describe.skipIf(PG_SKIP)("mcp-gen serve ledger on PostgreSQL (real processes)", () => {
    it("has a PostgreSQL server to run against (LEDGER_PG_URL)", () => {
      throw new Error(PG_MISSING);
    });
  });
}
