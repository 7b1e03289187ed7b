import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoAccounts } from "../service/index.ts";
import type { TransferReceipt } from "../tools.ts";
import { auditLedger } from "./support/audit.ts";
import { type DatabaseFixture, PG_MISSING, PG_SKIP, PG_URL, postgresDatabase } from "./support/backends.ts";
import { type BalancedClient, connectBalanced } from "./support/balanced-client.ts";
import {
  findNginx,
  freePort,
  NGINX_MISSING,
  NGINX_SKIP,
  nginxConfig,
  type RunningNginx,
  startNginx,
} from "./support/nginx.ts";
import { type Replica, startReplica } from "./support/replicas.ts";
import { forEachConcurrently } from "./support/served.ts";
import { LOAD_ACCOUNTS } from "./support/served-context.ts";
import { INSUFFICIENT, missingAcks, randomTransfers, type TransferArgs } from "./support/served-load.ts";

const NGINX = findNginx();
const TRANSFERS = 2000;
/** Calls in flight through the balancer. */
const IN_FLIGHT = 120;
/** Answered transfers before one replica is SIGKILLed, and before another is SIGTERMed. */
const KILL_AT = 500;
const TERM_AT = 1000;
/** A transfer is tried at most this often (same idempotency key) before the test gives up. */
const ATTEMPTS = 20;
/** An unanswered call is given up (and retried) after this long: a bound, never an assertion. */
const CALL_TIMEOUT_MS = 15_000;

if (!PG_URL || !NGINX) {
  // Without PostgreSQL or nginx the suite fails with instructions; the *_SKIP variables opt out locally.
  describe.skipIf(PG_SKIP || NGINX_SKIP)("ledger replicas behind nginx", () => {
    it("has PostgreSQL (LEDGER_PG_URL) and nginx (LEDGER_NGINX) to run against", () => {
      throw new Error(PG_URL ? NGINX_MISSING : PG_MISSING);
    });
  });
} else {
  describe("three mcp-gen serve ledger replicas behind nginx, on PostgreSQL", () => {
    let db: DatabaseFixture;
    let replicas: Replica[] = [];
    let nginx: RunningNginx | undefined;
    const clients: BalancedClient[] = [];

    beforeAll(async () => {
      db = await postgresDatabase();
      const own = await db.open({ defaultSender: "alice" });
      await seedDemoAccounts(own);
      for (const address of LOAD_ACCOUNTS) await own.mint({ address, amount: "50" });
      await own.close();
      const port = await freePort();
      replicas = await Promise.all(
        [1, 2, 3].map((n) =>
          startReplica({
            database: db.database,
            route: `replica-${n}`,
            balancerHost: `127.0.0.1:${port}`,
            args: ["--mask-errors", "--drain-timeout", "60000"],
          }),
        ),
      );
      nginx = await startNginx({
        binary: NGINX,
        config: nginxConfig({ port, replicaPorts: replicas.map((r) => r.port) }),
        port,
      });
      // 2025-era clients first, one after another: round robin spreads their sessions over the replicas.
      for (let i = 0; i < 6; i++) clients.push(await connectBalanced(`${nginx.url}/mcp`, "legacy"));
      for (let i = 0; i < 4; i++) clients.push(await connectBalanced(`${nginx.url}/mcp`, "2026-07-28"));
    }, 60_000);

    afterAll(async () => {
      await Promise.all(clients.map((c) => c.close()));
      for (const replica of replicas) replica.kill("SIGKILL");
      await Promise.all(replicas.map((r) => r.exited));
      await nginx?.stop();
      await db?.dispose();
    });

    it("pins 2025-era sessions to the replica that holds them, and balances the rest", async () => {
      const routes = clients.filter((c) => c.era === "legacy").map((c) => c.sessionId()?.split(".")[0]);
      expect(new Set(routes)).toStrictEqual(new Set(["replica-1", "replica-2", "replica-3"]));
      // Every client reaches the ledger, whichever replica answers.
      for (const client of clients) {
        const balance = await client.ledger.getBalance({ address: "acct-0" });
        expect(balance).toMatchObject({ ok: true, value: { address: "acct-0" } });
      }
      // A session no replica holds (its replica died, or it never was): HTTP 404, so the client re-initializes.
      const unknown = await fetch(`${nginx!.url}/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": "replica-2.00000000-0000-4000-8000-000000000000",
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect([
        unknown.status,
        ((await unknown.json()) as { error: { message: string } }).error.message,
      ]).toStrictEqual([404, "Session not found"]);
      const health = await fetch(`${nginx!.url}/healthz`);
      expect([health.status, await health.json()]).toStrictEqual([200, { status: "ok" }]);
    });

    it(`keeps every transfer exactly once through ${TRANSFERS} concurrent calls of both eras while one replica is SIGKILLed and one SIGTERMed`, async () => {
      const own = await db.open({ defaultSender: "alice" });
      try {
        const before = await auditLedger(own);
        const seed = Date.now() % 1_000_000;
        const prefix = `lb-${seed}`;
        const transfers = randomTransfers(seed, TRANSFERS, prefix);
        const acks = new Map<string, TransferReceipt>();
        const refused = new Set<string>();
        /** Keys whose first attempt got no answer, retried with the same key. */
        const retried = new Set<string>();
        const failures: string[] = [];
        // The SIGKILL victim holds the first 2025-era client's session: that client must meet a 404.
        const victim = replicas.find((r) => clients[0]!.sessionId()!.startsWith(`${r.route}.`))!;
        const drained = replicas.find((r) => r !== victim)!;
        let answered = 0;
        const answer = () => {
          answered++;
          if (answered === KILL_AT) victim.kill("SIGKILL");
          if (answered === TERM_AT) drained.kill("SIGTERM");
        };

        const send = async (args: TransferArgs, index: number) => {
          const client = clients[index % clients.length]!;
          for (let attempt = 1; ; attempt++) {
            try {
              const result = await client.ledger.transferEth(args, { timeout: CALL_TIMEOUT_MS });
              if (result.ok) acks.set(args.idempotency_key, result.value);
              else if (INSUFFICIENT.test(result.message)) refused.add(args.idempotency_key);
              else failures.push(`${args.idempotency_key}: ${result.message}`);
              answer();
              return;
            } catch (error) {
              retried.add(args.idempotency_key);
              if (attempt === ATTEMPTS) {
                failures.push(`${args.idempotency_key}: no answer in ${ATTEMPTS} attempts: ${error}`);
                return;
              }
              if (!(await client.recover(error))) await new Promise((r) => setTimeout(r, 20 * attempt));
            }
          }
        };
        await forEachConcurrently(transfers, send, { limit: IN_FLIGHT });

        const context = `seed ${seed}, retried ${retried.size}`;
        expect(failures, context).toStrictEqual([]);
        expect(acks.size + refused.size, context).toBe(TRANSFERS);
        expect(await victim.exited).toStrictEqual({ code: null, signal: "SIGKILL" });
        // Drained: every call it was answering finished, so it exits 0.
        expect(await drained.exited, drained.stderr()).toStrictEqual({ code: 0, signal: null });
        // The client whose session died with its replica got 404 and started a new session.
        expect(clients[0]!.reinitialized).toBeGreaterThanOrEqual(1);
        // Its 404 alone made one call unanswered: retries happened, and landed once (below).
        expect(retried.size).toBeGreaterThanOrEqual(1);
        expect(clients[0]!.sessionId()).not.toMatch(new RegExp(`^${victim.route}\\.`));

        const after = await auditLedger(own);
        expect(after.problems, context).toStrictEqual([]);
        expect(after.supply, context).toBe(before.supply);
        expect(missingAcks(after, acks.values()), context).toStrictEqual([]);
        // One transaction per acknowledged key (retried ones included), none for refused ones.
        const keyed = after.transactions.filter((t) => t.idempotencyKey?.startsWith(`${prefix}-`));
        expect(keyed.map((t) => t.idempotencyKey).sort(), context).toStrictEqual([...acks.keys()].sort());
        // No double debit: each balance moved by exactly the acknowledged transfers.
        const expected = new Map(before.accounts.map((a) => [a.address, a.balanceWei]));
        for (const a of acks.values()) {
          expected.set(a.from!, expected.get(a.from!)! - BigInt(a.amount_wei));
          expected.set(a.to, expected.get(a.to)! + BigInt(a.amount_wei));
        }
        expect(after.accounts.map((a) => [a.address, a.balanceWei])).toStrictEqual(
          [...expected].sort(([a], [b]) => (a < b ? -1 : 1)),
        );
        // The one replica left still serves both eras through the balancer.
        for (const client of [clients[0]!, clients.at(-1)!]) {
          expect(await client.ledger.getBalance({ address: "acct-1" })).toMatchObject({ ok: true });
        }
      } finally {
        await own.close();
      }
    }, 300_000);
  });
}
