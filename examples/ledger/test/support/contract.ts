import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  formatEth,
  LedgerError,
  type LedgerOptions,
  type LedgerService,
  parseEth,
} from "../../service/index.ts";
import { auditLedger } from "./audit.ts";
import { createRandom, randomAmount } from "./random.ts";

/** A fresh, empty database per test; `open` may be called several times (several connections). */
export interface LedgerFixture {
  open(options?: LedgerOptions): Promise<LedgerService>;
  dispose(): Promise<void>;
}

const NOW = new Date("2025-01-02T03:04:05.678Z");
const ETH = 10n ** 18n;

/** The behaviour every `LedgerService` implementation must have, run against one backend. */
export function ledgerContract(backend: string, createFixture: () => Promise<LedgerFixture>): void {
  describe(`LedgerService contract: ${backend}`, () => {
    let fixture: LedgerFixture;
    let ledger: LedgerService;
    const opened: LedgerService[] = [];
    const open = async (options: LedgerOptions = {}) => {
      const service = await fixture.open({ defaultSender: "alice", now: () => NOW, ...options });
      opened.push(service);
      return service;
    };

    beforeEach(async () => {
      fixture = await createFixture();
      ledger = await open();
      await ledger.mint({ address: "alice", amount: "100" });
      await ledger.mint({ address: "bob", amount: "5" });
    });

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
      await fixture.dispose();
    });

    /** Balances and the newest transaction id: what "nothing moved" compares. */
    const snapshot = async () => ({
      accounts: await ledger.listAccounts(),
      latest: (await ledger.listTransactions({ limit: 1 }))[0]?.id,
    });

    it("reports balances exactly, 0 for unknown addresses, case-insensitively", async () => {
      expect(await ledger.getBalance("alice")).toStrictEqual({ address: "alice", balanceWei: 100n * ETH });
      expect(await ledger.getBalance("Bob")).toStrictEqual({ address: "bob", balanceWei: 5n * ETH });
      expect(await ledger.getBalance("nobody")).toStrictEqual({ address: "nobody", balanceWei: 0n });
    });

    it("transfers in one step: debit, credit and a transaction record", async () => {
      const result = await ledger.transferEth({ toAddress: "bob", amount: "10.5", sender: "alice" });
      expect(result).toStrictEqual({
        replayed: false,
        transaction: {
          id: result.transaction.id,
          kind: "transfer",
          from: "alice",
          to: "bob",
          amountWei: 10_500_000_000_000_000_000n,
          senderBalanceWei: 89_500_000_000_000_000_000n,
          createdAt: NOW.toISOString(),
          idempotencyKey: null,
        },
      });
      expect(await ledger.getTransaction(result.transaction.id)).toStrictEqual(result.transaction);
      expect((await ledger.listAccounts()).map((a) => [a.address, formatEth(a.balanceWei)])).toStrictEqual([
        ["alice", "89.5"],
        ["bob", "15.5"],
      ]);
    });

    it("pays from the default sender and creates the recipient on its first credit", async () => {
      const { transaction } = await ledger.transferEth({ toAddress: "Carol", amount: "1" });
      expect([transaction.from, transaction.to]).toStrictEqual(["alice", "carol"]);
      expect(await ledger.getBalance("carol")).toStrictEqual({ address: "carol", balanceWei: ETH });
    });

    it("moves single wei and amounts far beyond 2^64 without rounding", async () => {
      await ledger.transferEth({ toAddress: "bob", amount: "0.000000000000000001" });
      await ledger.transferEth({ toAddress: "bob", amount: "99.999999999999999998" });
      expect(await ledger.getBalance("alice")).toStrictEqual({ address: "alice", balanceWei: 1n });
      await ledger.mint({ address: "whale", amount: "123456789012345678901234567890.123456789012345678" });
      await ledger.transferEth({
        toAddress: "bob",
        amount: "123456789012345678901234567890.123456789012345677",
        sender: "whale",
      });
      expect(await ledger.getBalance("whale")).toStrictEqual({ address: "whale", balanceWei: 1n });
      expect(formatEth((await ledger.getBalance("bob")).balanceWei)).toBe(
        "123456789012345678901234567995.123456789012345676",
      );
      expect((await auditLedger(ledger)).problems).toStrictEqual([]);
    });

    it("holds the whole uint256 range and refuses to mint beyond it", async () => {
      const fresh = await fixture.open();
      opened.push(fresh);
      const max = "115792089237316195423570985008687907853269984665640564039457.584007913129639935";
      const alice = await ledger.getBalance("alice");
      const bob = await ledger.getBalance("bob");
      const rest = parseEth(max) - alice.balanceWei - bob.balanceWei;
      await fresh.mint({ address: "max", amount: formatEth(rest) });
      await expectRefusal(fresh.mint({ address: "max", amount: "0.000000000000000001" }), "SUPPLY_LIMIT");
      await fresh.transferEth({ toAddress: "bob", amount: formatEth(rest), sender: "max" });
      expect((await fresh.getBalance("bob")).balanceWei).toBe(parseEth(max) - alice.balanceWei);
    });

    const refusals: [string, Parameters<LedgerService["transferEth"]>[0], string, RegExp][] = [
      ["a negative amount", { toAddress: "bob", amount: "-1" }, "INVALID_AMOUNT", /negative/],
      ["zero", { toAddress: "bob", amount: "0" }, "INVALID_AMOUNT", /zero/],
      ["zero with decimals", { toAddress: "bob", amount: "0.000" }, "INVALID_AMOUNT", /zero/],
      ["a word", { toAddress: "bob", amount: "ten" }, "INVALID_AMOUNT", /not a decimal number/],
      ["exponent notation", { toAddress: "bob", amount: "1e3" }, "INVALID_AMOUNT", /not a decimal number/],
      ["an empty amount", { toAddress: "bob", amount: "" }, "INVALID_AMOUNT", /not a decimal number/],
      ["spaces", { toAddress: "bob", amount: " 1" }, "INVALID_AMOUNT", /not a decimal number/],
      ["a comma", { toAddress: "bob", amount: "1,5" }, "INVALID_AMOUNT", /not a decimal number/],
      ["hex", { toAddress: "bob", amount: "0x10" }, "INVALID_AMOUNT", /not a decimal number/],
      ["Infinity", { toAddress: "bob", amount: "Infinity" }, "INVALID_AMOUNT", /not a decimal number/],
      [
        "a JSON number",
        { toAddress: "bob", amount: 1 as unknown as string },
        "INVALID_AMOUNT",
        /decimal string/,
      ],
      ["19 decimals", { toAddress: "bob", amount: "1.0000000000000000001" }, "INVALID_AMOUNT", /19 decimals/],
      [
        "an unknown sender",
        { toAddress: "bob", amount: "1", sender: "mallory" },
        "UNKNOWN_SENDER",
        /mallory/,
      ],
      [
        "insufficient funds",
        { toAddress: "alice", amount: "5.000000000000000001", sender: "bob" },
        "INSUFFICIENT_FUNDS",
        /"bob" has 5 ETH, the transfer needs 5.000000000000000001 ETH/,
      ],
      ["a transfer to oneself", { toAddress: "ALICE", amount: "1" }, "SAME_ACCOUNT", /alice/],
      [
        "a recipient with spaces",
        { toAddress: "bob smith", amount: "1" },
        "INVALID_ADDRESS",
        /to_address "bob smith"/,
      ],
      ["an empty recipient", { toAddress: "", amount: "1" }, "INVALID_ADDRESS", /to_address ""/],
      [
        "an empty idempotency key",
        { toAddress: "bob", amount: "1", idempotencyKey: "" },
        "INVALID_ARGUMENT",
        /idempotency_key/,
      ],
    ];
    it.each(
      refusals,
    )("refuses %s with a clear error and moves nothing", async (_, request, code, message) => {
      const before = await snapshot();
      const error = await expectRefusal(ledger.transferEth(request), code);
      expect(error.message).toMatch(message);
      expect(await snapshot()).toStrictEqual(before);
    });

    it("needs a sender when the service has no default", async () => {
      const anonymous = await open({ defaultSender: undefined });
      await expectRefusal(anonymous.transferEth({ toAddress: "bob", amount: "1" }), "INVALID_ARGUMENT");
    });

    it("returns the first result for a repeated idempotency key and moves nothing more", async () => {
      const first = await ledger.transferEth({ toAddress: "bob", amount: "1", idempotencyKey: "pay-1" });
      const again = await ledger.transferEth({ toAddress: "BOB", amount: "1.0", idempotencyKey: "pay-1" });
      expect(again).toStrictEqual({ ...first, replayed: true });
      expect((await ledger.getBalance("alice")).balanceWei).toBe(99n * ETH);
      const error = await expectRefusal(
        ledger.transferEth({ toAddress: "bob", amount: "2", idempotencyKey: "pay-1" }),
        "IDEMPOTENCY_KEY_REUSED",
      );
      expect(error.message).toMatch(/"pay-1" was already used for another transfer \(alice → bob\)/);
    });

    it("does not burn the idempotency key of a refused transfer", async () => {
      await expectRefusal(
        ledger.transferEth({ toAddress: "alice", amount: "6", sender: "bob", idempotencyKey: "k" }),
        "INSUFFICIENT_FUNDS",
      );
      await ledger.mint({ address: "bob", amount: "1" });
      const { replayed, transaction } = await ledger.transferEth({
        toAddress: "alice",
        amount: "6",
        sender: "bob",
        idempotencyKey: "k",
      });
      expect([replayed, transaction.amountWei, (await ledger.getBalance("bob")).balanceWei]).toStrictEqual([
        false,
        6n * ETH,
        0n,
      ]);
    });

    it("debits exactly once for 200 concurrent calls with one idempotency key", async () => {
      const second = await open();
      const calls = Array.from({ length: 200 }, (_, i) =>
        (i % 2 ? second : ledger).transferEth({ toAddress: "bob", amount: "0.5", idempotencyKey: "once" }),
      );
      const results = await Promise.all(calls);
      expect(results.filter((r) => !r.replayed)).toHaveLength(1);
      expect(new Set(results.map((r) => r.transaction.id)).size).toBe(1);
      expect((await ledger.getBalance("alice")).balanceWei).toBe(99n * ETH + ETH / 2n);
      expect((await ledger.getBalance("bob")).balanceWei).toBe(5n * ETH + ETH / 2n);
      expect(
        (await ledger.listTransactions({ address: "bob" })).filter((t) => t.kind === "transfer"),
      ).toHaveLength(1);
    });

    it("lists transactions newest first, by address, with a limit and a cursor", async () => {
      const a = await ledger.transferEth({ toAddress: "carol", amount: "1" });
      const b = await ledger.transferEth({ toAddress: "alice", amount: "2", sender: "bob" });
      const c = await ledger.transferEth({ toAddress: "dave", amount: "3" });
      const ids = (txs: { id: number }[]) => txs.map((t) => t.id);
      expect(ids(await ledger.listTransactions({ limit: 3 }))).toStrictEqual(
        [c, b, a].map((r) => r.transaction.id),
      );
      expect(ids(await ledger.listTransactions({ address: "Carol" }))).toStrictEqual([a.transaction.id]);
      expect((await ledger.listTransactions({ address: "bob" })).map((t) => t.kind)).toStrictEqual([
        "transfer",
        "mint",
      ]);
      expect(ids(await ledger.listTransactions({ limit: 1, beforeId: c.transaction.id }))).toStrictEqual([
        b.transaction.id,
      ]);
      await expectRefusal(ledger.listTransactions({ limit: 0 }), "INVALID_ARGUMENT");
      await expectRefusal(ledger.listTransactions({ limit: 1.5 }), "INVALID_ARGUMENT");
    });

    it("keeps everything when reopened", async () => {
      const { transaction } = await ledger.transferEth({ toAddress: "bob", amount: "7" });
      await ledger.close();
      ledger = await open();
      expect(await ledger.getTransaction(transaction.id)).toStrictEqual(transaction);
      expect((await ledger.getBalance("bob")).balanceWei).toBe(12n * ETH);
      expect(await ledger.getTransaction(999_999)).toBeUndefined();
    });

    it("conserves supply under 2,000 random concurrent transfers between 20 accounts", async () => {
      const seed = Date.now() % 1_000_000;
      const random = createRandom(seed);
      const accounts = Array.from({ length: 20 }, (_, i) => `acct-${i}`);
      for (const address of accounts) await ledger.mint({ address, amount: "50" });
      const before = await auditLedger(ledger);
      const connections = [ledger, await open(), await open()];
      const requests = Array.from({ length: 2000 }, (_, i) => {
        const from = random.pick(accounts);
        let to = random.pick(accounts);
        if (to === from) to = accounts[(accounts.indexOf(from) + 1) % accounts.length]!;
        return { sender: from, toAddress: to, amount: randomAmount(random, 20), idempotencyKey: `r-${i}` };
      });
      const settled = await Promise.allSettled(requests.map((r, i) => connections[i % 3]!.transferEth(r)));
      const acknowledged = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value.transaction] : []));
      const refused = settled.flatMap((s) => (s.status === "rejected" ? [s.reason] : []));
      expect(
        refused.filter((e) => !(e instanceof LedgerError && e.code === "INSUFFICIENT_FUNDS")),
        `seed ${seed}`,
      ).toStrictEqual([]);
      expect(acknowledged.length, `seed ${seed}`).toBeGreaterThan(1000);

      const after = await auditLedger(ledger);
      expect(after.problems, `seed ${seed}`).toStrictEqual([]);
      expect(after.supply).toBe(before.supply);
      const stored = new Map(after.transactions.map((t) => [t.id, t]));
      expect(acknowledged.filter((t) => stored.get(t.id)?.amountWei !== t.amountWei)).toStrictEqual([]);
      expect(after.transactions.filter((t) => t.idempotencyKey?.startsWith("r-"))).toHaveLength(
        acknowledged.length,
      );
      const expected = new Map(before.accounts.map((a) => [a.address, a.balanceWei]));
      for (const t of acknowledged) {
        expected.set(t.from!, expected.get(t.from!)! - t.amountWei);
        expected.set(t.to, expected.get(t.to)! + t.amountWei);
      }
      expect(after.accounts.map((a) => [a.address, a.balanceWei])).toStrictEqual([...expected].sort());
    });
  });
}

async function expectRefusal(promise: Promise<unknown>, code: string): Promise<LedgerError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LedgerError);
  expect((error as LedgerError).code).toBe(code);
  return error as LedgerError;
}
