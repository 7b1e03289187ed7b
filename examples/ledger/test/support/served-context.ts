import type { LedgerService } from "../../service/index.ts";
import type { DatabaseFixture } from "./backends.ts";
import { type ServedLedger, serveLedger } from "./served.ts";

/** The accounts the load tests move money between: `acct-0` … `acct-19`, 50 ETH each at the start. */
export const LOAD_ACCOUNTS = Array.from({ length: 20 }, (_, i) => `acct-${i}`);

/** What the served tests share: the test's own connection and two server processes on one database. */
export interface ServedContext {
  readonly db: DatabaseFixture;
  /** The test's own connection, for setup and audits. */
  readonly ledger: LedgerService;
  readonly stdio: ServedLedger;
  readonly http: ServedLedger;
}

/** Another `mcp-gen serve ledger --mask-errors` process on the context's database. */
export function serveLedgerFor(ctx: Pick<ServedContext, "db">, transport: "stdio" | "http") {
  return serveLedger({ database: ctx.db.database, transport, args: ["--mask-errors"] });
}
