import { expect, it } from "vitest";
import { formatEth, type LedgerService, parseEth } from "../../service/index.ts";
import { auditLedger } from "./audit.ts";
import { type ContractContext, ETH, expectRefusal, NOW } from "./fixture.ts";

/** Single-caller behaviour: exact amounts, refusals that move nothing, idempotency, listing. */
export function transferContract(ctx: ContractContext): void {
  /** Balances and the newest transaction id: what "nothing moved" compares. */
  const snapshot = async () => ({
    accounts: await ctx.ledger.listAccounts(),
    latest: (await ctx.ledger.listTransactions({ limit: 1 }))[0]?.id,
  });

  it("reports balances exactly, 0 for unknown addresses, case-insensitively", async () => {
    expect(await ctx.ledger.getBalance("alice")).toStrictEqual({ address: "alice", balanceWei: 100n * ETH });
    expect(await ctx.ledger.getBalance("Bob")).toStrictEqual({ address: "bob", balanceWei: 5n * ETH });
    expect(await ctx.ledger.getBalance("nobody")).toStrictEqual({ address: "nobody", balanceWei: 0n });
  });

  it("transfers in one step: debit, credit and a transaction record", async () => {
    const result = await ctx.ledger.transferEth({ toAddress: "bob", amount: "10.5", sender: "alice" });
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
    expect(await ctx.ledger.getTransaction(result.transaction.id)).toStrictEqual(result.transaction);
    expect((await ctx.ledger.listAccounts()).map((a) => [a.address, formatEth(a.balanceWei)])).toStrictEqual([
      ["alice", "89.5"],
      ["bob", "15.5"],
    ]);
  });

  it("pays from the default sender and creates the recipient on its first credit", async () => {
    const { transaction } = await ctx.ledger.transferEth({ toAddress: "Carol", amount: "1" });
    expect([transaction.from, transaction.to]).toStrictEqual(["alice", "carol"]);
    expect(await ctx.ledger.getBalance("carol")).toStrictEqual({ address: "carol", balanceWei: ETH });
  });

  it("moves single wei and amounts far beyond 2^64 without rounding", async () => {
    await ctx.ledger.transferEth({ toAddress: "bob", amount: "0.000000000000000001" });
    await ctx.ledger.transferEth({ toAddress: "bob", amount: "99.999999999999999998" });
    expect(await ctx.ledger.getBalance("alice")).toStrictEqual({ address: "alice", balanceWei: 1n });
    await ctx.ledger.mint({ address: "whale", amount: "123456789012345678901234567890.123456789012345678" });
    await ctx.ledger.transferEth({
      toAddress: "bob",
      amount: "123456789012345678901234567890.123456789012345677",
      sender: "whale",
    });
    expect(await ctx.ledger.getBalance("whale")).toStrictEqual({ address: "whale", balanceWei: 1n });
    expect(formatEth((await ctx.ledger.getBalance("bob")).balanceWei)).toBe(
      "123456789012345678901234567995.123456789012345676",
    );
    expect((await auditLedger(ctx.ledger)).problems).toStrictEqual([]);
  });

  it("holds the whole uint256 range and refuses to mint beyond it", async () => {
    const fresh = await ctx.open();
    const max = "115792089237316195423570985008687907853269984665640564039457.584007913129639935";
    const alice = await ctx.ledger.getBalance("alice");
    const bob = await ctx.ledger.getBalance("bob");
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
    ["an unknown sender", { toAddress: "bob", amount: "1", sender: "mallory" }, "UNKNOWN_SENDER", /mallory/],
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
  it.each(refusals)("refuses %s with a clear error and moves nothing", async (_, request, code, message) => {
    const before = await snapshot();
    const error = await expectRefusal(ctx.ledger.transferEth(request), code);
    expect(error.message).toMatch(message);
    expect(await snapshot()).toStrictEqual(before);
  });

  it("needs a sender when the service has no default", async () => {
    const anonymous = await ctx.open({ defaultSender: undefined });
    await expectRefusal(anonymous.transferEth({ toAddress: "bob", amount: "1" }), "INVALID_ARGUMENT");
  });

  it("returns the first result for a repeated idempotency key and moves nothing more", async () => {
    const first = await ctx.ledger.transferEth({ toAddress: "bob", amount: "1", idempotencyKey: "pay-1" });
    const again = await ctx.ledger.transferEth({ toAddress: "BOB", amount: "1.0", idempotencyKey: "pay-1" });
    expect(again).toStrictEqual({ ...first, replayed: true });
    expect((await ctx.ledger.getBalance("alice")).balanceWei).toBe(99n * ETH);
    const error = await expectRefusal(
      ctx.ledger.transferEth({ toAddress: "bob", amount: "2", idempotencyKey: "pay-1" }),
      "IDEMPOTENCY_KEY_REUSED",
    );
    expect(error.message).toMatch(/"pay-1" was already used for another transfer \(alice → bob\)/);
  });

  it("does not burn the idempotency key of a refused transfer", async () => {
    await expectRefusal(
      ctx.ledger.transferEth({ toAddress: "alice", amount: "6", sender: "bob", idempotencyKey: "k" }),
      "INSUFFICIENT_FUNDS",
    );
    await ctx.ledger.mint({ address: "bob", amount: "1" });
    const { replayed, transaction } = await ctx.ledger.transferEth({
      toAddress: "alice",
      amount: "6",
      sender: "bob",
      idempotencyKey: "k",
    });
    expect([replayed, transaction.amountWei, (await ctx.ledger.getBalance("bob")).balanceWei]).toStrictEqual([
      false,
      6n * ETH,
      0n,
    ]);
  });

  it("lists transactions newest first, by address, with a limit and a cursor", async () => {
    const a = await ctx.ledger.transferEth({ toAddress: "carol", amount: "1" });
    const b = await ctx.ledger.transferEth({ toAddress: "alice", amount: "2", sender: "bob" });
    const c = await ctx.ledger.transferEth({ toAddress: "dave", amount: "3" });
    const ids = (txs: { id: number }[]) => txs.map((t) => t.id);
    expect(ids(await ctx.ledger.listTransactions({ limit: 3 }))).toStrictEqual(
      [c, b, a].map((r) => r.transaction.id),
    );
    expect(ids(await ctx.ledger.listTransactions({ address: "Carol" }))).toStrictEqual([a.transaction.id]);
    expect((await ctx.ledger.listTransactions({ address: "bob" })).map((t) => t.kind)).toStrictEqual([
      "transfer",
      "mint",
    ]);
    expect(ids(await ctx.ledger.listTransactions({ limit: 1, beforeId: c.transaction.id }))).toStrictEqual([
      b.transaction.id,
    ]);
    await expectRefusal(ctx.ledger.listTransactions({ limit: 0 }), "INVALID_ARGUMENT");
    await expectRefusal(ctx.ledger.listTransactions({ limit: 1.5 }), "INVALID_ARGUMENT");
  });

  it("keeps everything when reopened", async () => {
    const { transaction } = await ctx.ledger.transferEth({ toAddress: "bob", amount: "7" });
    await ctx.reopen();
    expect(await ctx.ledger.getTransaction(transaction.id)).toStrictEqual(transaction);
    expect((await ctx.ledger.getBalance("bob")).balanceWei).toBe(12n * ETH);
    expect(await ctx.ledger.getTransaction(999_999)).toBeUndefined();
  });
}
