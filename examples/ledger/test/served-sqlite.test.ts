import { sqliteDatabase } from "./support/backends.ts";
import { servedLedgerContract } from "./support/served-contract.ts";

servedLedgerContract("SQLite", sqliteDatabase);
