import { sqliteFixture } from "./support/backends.ts";
import { ledgerContract } from "./support/contract.ts";

ledgerContract("SQLite", sqliteFixture);
