/**
 * A load process for the multi-process and SIGKILL tests: random transfers between
 * `acct-0…acct-{n-1}` on one SQLite file. Each transfer is acknowledged, after its commit,
 * with one JSON line on stdout; refusals (insufficient funds) are not acknowledged.
 *
 * Usage: node --import tsx transfer-load.ts <file> <accounts> <seed> <count|forever> [shared-key]
 */
import { LedgerError, openSqliteLedger } from "../../service/index.ts";
import { createRandom, randomAmount } from "./random.ts";

export interface Ack {
  id: number;
  from: string;
  to: string;
  wei: string;
  key: string | null;
  replayed: boolean;
}

const [file, accountCount, seed, count, sharedKey] = process.argv.slice(2);
if (!file || !accountCount || !seed || !count) {
  process.stderr.write("usage: transfer-load.ts <file> <accounts> <seed> <count|forever> [shared-key]\n");
  process.exit(2);
}
const ledger = openSqliteLedger({ file });
const random = createRandom(Number(seed));
const accounts = Array.from({ length: Number(accountCount) }, (_, i) => `acct-${i}`);
const ack = (a: Ack) => process.stdout.write(`${JSON.stringify(a)}\n`);

if (sharedKey) {
  const { transaction, replayed } = await ledger.transferEth({
    sender: "acct-0",
    toAddress: "acct-1",
    amount: "1",
    idempotencyKey: sharedKey,
  });
  ack({
    id: transaction.id,
    from: "acct-0",
    to: "acct-1",
    wei: `${transaction.amountWei}`,
    key: sharedKey,
    replayed,
  });
}
for (let i = 0; count === "forever" || i < Number(count); i++) {
  const from = random.pick(accounts);
  const to = accounts[(accounts.indexOf(from) + 1 + random.int(accounts.length - 1)) % accounts.length]!;
  const key = `p${process.pid}-${i}`;
  try {
    const { transaction } = await ledger.transferEth({
      sender: from,
      toAddress: to,
      amount: randomAmount(random, 20),
      idempotencyKey: key,
    });
    ack({ id: transaction.id, from, to, wei: `${transaction.amountWei}`, key, replayed: false });
  } catch (error) {
    if (!(error instanceof LedgerError && error.code === "INSUFFICIENT_FUNDS")) throw error;
  }
}
await ledger.close();
