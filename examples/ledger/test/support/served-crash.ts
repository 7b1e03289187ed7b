import { expect, it } from "vitest";
import type { TransferReceipt } from "../../tools.ts";
import { auditLedger } from "./audit.ts";
import { forEachConcurrently } from "./served.ts";
import { type ServedContext, serveLedgerFor } from "./served-context.ts";
import { INSUFFICIENT, missingAcks, randomTransfers, type TransferArgs } from "./served-load.ts";

/** Server processes killed, each after this many acknowledged transfers of its own. */
const KILLS = 3;
const ACKS_BEFORE_KILL = 150;
/** Calls in flight while the server is killed. */
const IN_FLIGHT = 16;

export function servedCrashContract(ctx: ServedContext): void {
  it(`keeps every acknowledged transfer when the server is killed with SIGKILL mid-load (${KILLS} times)`, async () => {
    const { supply } = await auditLedger(ctx.ledger);
    /** Acknowledged receipts by idempotency key. */
    const acks = new Map<string, TransferReceipt>();
    /** Calls that were in flight when the server died: maybe committed, never acknowledged. */
    let unacknowledged: TransferArgs[] = [];
    const acknowledge = (args: TransferArgs, message: string | TransferReceipt) => {
      if (typeof message === "string") expect(message).toMatch(INSUFFICIENT);
      else acks.set(args.idempotency_key, message);
    };

    for (let round = 0; round <= KILLS; round++) {
      const server = await serveLedgerFor(ctx, "http");
      // The restarted server is consistent, holds every acknowledged transfer, and says so itself.
      const audit = await auditLedger(ctx.ledger);
      expect([audit.problems, audit.supply]).toStrictEqual([[], supply]);
      expect(missingAcks(audit, acks.values())).toStrictEqual([]);
      expect(await ctx.db.integrity()).toStrictEqual([]);
      const listed = await server.ledger.listAccounts();
      expect(listed.ok && listed.value.accounts.map((a) => [a.address, a.balance_wei])).toStrictEqual(
        audit.accounts.map((a) => [a.address, `${a.balanceWei}`]),
      );
      // Retrying with the same key is safe: a call the dead server committed is replayed, not repeated.
      for (const args of unacknowledged) {
        const result = await server.ledger.transferEth(args);
        acknowledge(args, result.ok ? result.value : result.message);
      }
      unacknowledged = [];
      if (round === KILLS) {
        await server.close();
        break;
      }

      let acked = 0;
      let killed = false;
      const transfers = randomTransfers(1000 + round, 20 * ACKS_BEFORE_KILL, `crash-${round}`);
      await forEachConcurrently(
        transfers,
        async (args) => {
          try {
            const result = await server.ledger.transferEth(args);
            acknowledge(args, result.ok ? result.value : result.message);
            if (result.ok && ++acked === ACKS_BEFORE_KILL) {
              killed = true;
              process.kill(server.pid, "SIGKILL");
              // Once the process is gone no answer can come; closing the client ends the calls still
              // waiting (a response stream cut mid-way would otherwise wait for the SDK's request timeout).
              void server.exited.then(() => server.client.close());
            }
          } catch (error) {
            if (!killed) throw error;
            unacknowledged.push(args);
          }
        },
        { limit: IN_FLIGHT, stop: () => killed },
      );
      expect(killed).toBe(true);
      expect(await server.exited).toStrictEqual({ code: null, signal: "SIGKILL" });
      await server.close();
    }

    const audit = await auditLedger(ctx.ledger);
    expect(missingAcks(audit, acks.values())).toStrictEqual([]);
    expect(acks.size).toBeGreaterThanOrEqual(KILLS * ACKS_BEFORE_KILL);
    // Exactly one transaction per acknowledged key, whether it was acknowledged before or after a crash.
    const keyed = audit.transactions.filter((t) => t.idempotencyKey?.startsWith("crash-"));
    expect(keyed.map((t) => t.idempotencyKey).sort()).toStrictEqual([...acks.keys()].sort());
  });
}
