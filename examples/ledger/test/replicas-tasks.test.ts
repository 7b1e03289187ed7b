import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, until, untilTask } from "../../../packages/runtime/test/state/replicas.ts";
import { formatEth, seedDemoAccounts } from "../service/index.ts";
import type { Statement } from "../tools.ts";
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

const NGINX = findNginx();
/** The tasks' state: the ledger's own database, in a schema of its own. */
const NAMESPACE = "ledger_tasks";
/** A killed replica's task is taken over this long after its last renewal (short for the test). */
const LEASE_MS = "1500";
const ACCOUNTS = ["alice", "bob", "carol", "dave"];
const PERIOD = { from: "2026-02-01T00:00:00.000Z", to: "2026-03-01T00:00:00.000Z" };

if (!PG_URL || !NGINX) {
  describe.skipIf(PG_SKIP || NGINX_SKIP)("ledger tasks on replicas behind nginx", () => {
    it("has PostgreSQL (LEDGER_PG_URL) and nginx (LEDGER_NGINX) to run against", () => {
      throw new Error(PG_URL ? NGINX_MISSING : PG_MISSING);
    });
  });
} else {
  /**
   * `export_statement` tasks on three `mcp-gen serve ledger --state <the ledger's database>`
   * replicas behind nginx: the tasks live in the ledger's own PostgreSQL (schema `ledger_tasks`).
   * Every wait is bounded polling of an observable state (the task, `pg_locks`), never a delay.
   */
  describe("ledger statement tasks on three replicas sharing the ledger's PostgreSQL", () => {
    let db: DatabaseFixture;
    let sql: pg.Client;
    let replicas: Replica[] = [];
    let nginx: RunningNginx | undefined;
    const clients: BalancedClient[] = [];
    const direct = (r: Replica) => `http://127.0.0.1:${r.port}/mcp`;

    beforeAll(async () => {
      db = await postgresDatabase();
      // History on the test's clock: January (before the period) and February (the period).
      let clock = new Date("2026-01-01T00:00:00.000Z").getTime();
      const own = await db.open({ defaultSender: "alice", now: () => new Date(clock) });
      await seedDemoAccounts(own);
      for (let i = 0; i < 80; i++) {
        clock = new Date(i < 40 ? "2026-01-02" : "2026-02-02").getTime() + i * 3_600_000;
        const sender = ACCOUNTS[i % 4]!;
        const to = ACCOUNTS[(i * 3 + 1) % 4]!;
        if (sender !== to) await own.transferEth({ sender, toAddress: to, amount: `${(i % 7) + 1}.25` });
      }
      await own.close();
      sql = new pg.Client({ connectionString: db.database });
      await sql.connect();
      const state = `${db.database}?namespace=${NAMESPACE}`;
      const port = await freePort();
      const ports = [await freePort(), await freePort(), await freePort()];
      replicas = await Promise.all(
        ports.map((replicaPort, i) =>
          startReplica({
            database: db.database,
            route: `replica-${i + 1}`,
            balancerHost: `127.0.0.1:${port}`,
            port: replicaPort,
            args: ["--state", state],
            env: { MCP_GEN_STATE_LEASE_MS: LEASE_MS },
          }),
        ),
      );
      nginx = await startNginx({ binary: NGINX, config: nginxConfig({ port, replicaPorts: ports }), port });
      clients.push(await connectBalanced(`${nginx.url}/mcp`, "2026-07-28"));
      clients.push(await connectBalanced(`${nginx.url}/mcp`, "legacy"));
    }, 60_000);

    afterAll(async () => {
      await Promise.all(clients.map((c) => c.close()));
      for (const replica of replicas) replica.kill("SIGKILL");
      await Promise.all(replicas.map((r) => r.exited));
      await nginx?.stop();
      await sql?.end();
      await db?.dispose();
    });

    /** The statement of `address` over the period, summed by PostgreSQL from the ledger's tables. */
    async function expected(
      address: string,
    ): Promise<Omit<Statement, "transactions"> & { tx_ids: number[] }> {
      const { rows } = await sql.query(
        `SELECT
           (COALESCE(SUM(amount) FILTER (WHERE to_address = $1 AND created_at < $2), 0)
            - COALESCE(SUM(amount) FILTER (WHERE from_address = $1 AND created_at < $2), 0))::text AS opening,
           COALESCE(SUM(amount) FILTER (WHERE to_address = $1 AND created_at >= $2 AND created_at < $3), 0)::text AS total_in,
           COALESCE(SUM(amount) FILTER (WHERE from_address = $1 AND created_at >= $2 AND created_at < $3), 0)::text AS total_out,
           COALESCE(array_agg(id ORDER BY id) FILTER (WHERE created_at >= $2 AND created_at < $3), '{}') AS ids
         FROM transactions WHERE to_address = $1 OR from_address = $1`,
        [address, PERIOD.from, PERIOD.to],
      );
      const row = rows[0] as { opening: string; total_in: string; total_out: string; ids: string[] };
      const [opening, totalIn, totalOut] = [row.opening, row.total_in, row.total_out].map(BigInt) as [
        bigint,
        bigint,
        bigint,
      ];
      return {
        address,
        ...PERIOD,
        opening_balance: formatEth(opening),
        closing_balance: formatEth(opening + totalIn - totalOut),
        total_in: formatEth(totalIn),
        total_out: formatEth(totalOut),
        tx_ids: row.ids.map(Number),
      };
    }

    const summary = (s: Statement) => {
      const { transactions, ...rest } = s;
      return { ...rest, tx_ids: transactions.map((t) => t.tx_id) };
    };

    /** The replica holding a task's lease, from the task's row in the ledger's database. */
    async function leaseHolder(taskId: string): Promise<Replica | undefined> {
      const { rows } = await sql.query(`SELECT lease_holder FROM ${NAMESPACE}.tasks WHERE task_id = $1`, [
        taskId,
      ]);
      const pid = String(rows[0]?.lease_holder ?? "").split(":")[1];
      return replicas.find((r) => String(r.pid) === pid);
    }

    it("reads a statement task created through replica 1 through replicas 2 and 3, as PostgreSQL sums it", async () => {
      const [r1, r2, r3] = replicas as [Replica, Replica, Replica];
      const want = await expected("bob");
      expect([want.tx_ids.length > 0, want.opening_balance !== "0"]).toStrictEqual([true, true]);
      const created = await call(
        direct(r1),
        "tools/call",
        { name: "export_statement", arguments: { address: "bob", ...PERIOD } },
        "export_statement",
      );
      const taskId = created.taskId as string;
      const done = await untilTask(direct(r2), taskId, (t) => t.status !== "working");
      expect(done).toMatchObject({ status: "completed" });
      const result = done.result as { structuredContent: Statement };
      expect(summary(result.structuredContent)).toStrictEqual(want);
      expect(await call(direct(r3), "tasks/get", { taskId }, taskId)).toStrictEqual(done);
      // The task is a row of the ledger's own database.
      const { rows } = await sql.query(`SELECT status FROM ${NAMESPACE}.tasks WHERE task_id = $1`, [taskId]);
      expect(rows).toStrictEqual([{ status: "completed" }]);
    });

    it("runs statement tasks through nginx with the typed client of both eras", async () => {
      const want = await expected("carol");
      for (const client of clients) {
        const task = await client.ledger.exportStatement.task({ address: "carol", ...PERIOD });
        const result = await task.result();
        expect(result.ok && summary(result.value), client.era).toStrictEqual(want);
      }
    });

    it("completes a statement on another replica after the one running it is SIGKILLed", async () => {
      const [r1] = replicas as [Replica];
      const want = await expected("dave");
      // Hold the ledger's transactions table: the statement's first read waits on it, mid-task.
      const locker = new pg.Client({ connectionString: db.database });
      await locker.connect();
      try {
        await locker.query("BEGIN");
        await locker.query("LOCK TABLE transactions IN ACCESS EXCLUSIVE MODE");
        const waiting = async () =>
          Number(
            (
              await sql.query(
                "SELECT count(*) AS n FROM pg_locks WHERE relation = 'transactions'::regclass AND NOT granted",
              )
            ).rows[0].n,
          );
        const created = await call(
          direct(r1),
          "tools/call",
          { name: "export_statement", arguments: { address: "dave", ...PERIOD } },
          "export_statement",
        );
        const taskId = created.taskId as string;
        expect(
          await until(
            () => leaseHolder(taskId),
            (r) => r !== undefined,
          ),
        ).toBe(r1);
        await until(waiting, (n) => n === 1);
        r1.kill("SIGKILL");
        expect(await r1.exited).toStrictEqual({ code: null, signal: "SIGKILL" });
        // The lease lapses; a surviving replica takes the task and runs it again (it only reads).
        const heir = await until(
          () => leaseHolder(taskId),
          (r) => r !== undefined && r !== r1,
        );
        await locker.query("COMMIT");
        const survivors = replicas.filter((r) => r !== r1 && r !== heir);
        const done = await untilTask(direct(survivors[0]!), taskId, (t) => t.status !== "working");
        expect(done).toMatchObject({ status: "completed" });
        expect(summary((done.result as { structuredContent: Statement }).structuredContent)).toStrictEqual(
          want,
        );
      } finally {
        await locker.end();
      }
    });
  });
}
