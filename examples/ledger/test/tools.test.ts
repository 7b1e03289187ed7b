import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tools as listed, validators } from "../../../generated/ledger/index.ts";
import { type LedgerService, openSqliteLedger, seedDemoAccounts } from "../service/index.ts";
import { LedgerTools } from "../tools.ts";
import { sqliteFixture } from "./support/backends.ts";

type ToolName = keyof typeof validators;
const contract = JSON.parse(
  readFileSync(new URL("../../../schemas/ledger.tools.json", import.meta.url), "utf8"),
);

/**
 * Calls a tool the way the contract says a server must: validate the arguments object,
 * spread it into the method's positional parameters in binding order, validate the result.
 */
async function call(tools: LedgerTools, name: ToolName, args: Record<string, unknown>): Promise<unknown> {
  const input = validators[name].input.check(args);
  if (!input.ok) return { invalid: input.message };
  const binding = contract["x-mcp-gen"].tools[name].binding;
  expect([binding.kind, binding.export, binding.method]).toStrictEqual(["method", "LedgerTools", name]);
  const method = (tools as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[binding.method];
  const result = await method!.apply(
    tools,
    binding.params.map((p: string) => args[p]),
  );
  expect(validators[name].output.check(result)).toStrictEqual({ ok: true, value: result });
  return result;
}

describe("ledger tools", () => {
  let fixture: Awaited<ReturnType<typeof sqliteFixture>>;
  let ledger: LedgerService;
  let tools: LedgerTools;

  beforeEach(async () => {
    fixture = await sqliteFixture();
    ledger = openSqliteLedger({
      file: fixture.file,
      defaultSender: "alice",
      now: () => new Date("2025-05-06T07:08:09.000Z"),
    });
    await seedDemoAccounts(ledger);
    tools = new LedgerTools(ledger);
  });

  afterEach(async () => {
    await ledger.close();
    await fixture.dispose();
  });

  it("are listed with the annotations clients rely on", () => {
    expect(Object.fromEntries(listed.map((t) => [t.name, t.annotations]))).toStrictEqual({
      export_statement: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      faucet: { openWorldHint: false },
      get_balance: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      list_accounts: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      list_transactions: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      transfer_eth: { destructiveHint: true, openWorldHint: false },
    });
  });

  it("transfer_eth moves exact decimal amounts and returns a receipt", async () => {
    const receipt = await call(tools, "transfer_eth", { to_address: "bob", amount: "10.000000000000000001" });
    expect(receipt).toStrictEqual({
      tx_id: 5,
      kind: "transfer",
      from: "alice",
      to: "bob",
      amount: "10.000000000000000001",
      amount_wei: "10000000000000000001",
      created_at: "2025-05-06T07:08:09.000Z",
      sender_balance: "89.999999999999999999",
      idempotency_key: null,
      replayed: false,
    });
    expect(await call(tools, "get_balance", { address: "bob" })).toStrictEqual({
      address: "bob",
      balance: "110.000000000000000001",
      balance_wei: "110000000000000000001",
    });
  });

  it("replays a transfer with a known idempotency key", async () => {
    const args = { to_address: "carol", amount: "1", sender: "bob", idempotency_key: "chat-42" };
    const first = (await call(tools, "transfer_eth", args)) as Record<string, unknown>;
    expect(await call(tools, "transfer_eth", args)).toStrictEqual({ ...first, replayed: true });
    expect(await call(tools, "get_balance", { address: "bob" })).toMatchObject({ balance: "99" });
  });

  it("rejects malformed amounts in the schema, before the service runs", async () => {
    const invalid = async (amount: unknown) =>
      ((await call(tools, "transfer_eth", { to_address: "bob", amount })) as { invalid?: string }).invalid;
    expect(await invalid(10)).toMatch(/\/amount: expected a string, received number 10/);
    for (const amount of ["-1", "1e3", "ten", "1.0000000000000000001", ""]) {
      expect(await invalid(amount)).toMatch(/\/amount: expected .*pattern/);
    }
    expect(await call(tools, "list_accounts", {})).toMatchObject({
      accounts: [{ balance: "100" }, { balance: "100" }, { balance: "100" }, { balance: "100" }],
    });
  });

  it("turns refusals the schema cannot see into clear errors", async () => {
    await expect(call(tools, "transfer_eth", { to_address: "bob", amount: "0" })).rejects.toThrow(
      'amount "0" is zero; send more than 0',
    );
    await expect(call(tools, "transfer_eth", { to_address: "bob", amount: "1000" })).rejects.toThrow(
      'insufficient funds: "alice" has 100 ETH, the transfer needs 1000 ETH',
    );
    await expect(
      call(tools, "transfer_eth", { to_address: "bob", amount: "1", sender: "eve" }),
    ).rejects.toThrow('sender "eve" has no account');
    await expect(call(tools, "faucet", { address: "eve", amount: "100.5" })).rejects.toThrow(
      "the faucet gives at most 100 ETH per call",
    );
    expect((await call(tools, "list_transactions", {})) as { transactions: unknown[] }).toMatchObject({
      transactions: { length: 4 },
    });
  });

  it("create() opens the database, makes alice the sender and funds the demo accounts only once", async () => {
    const first = await LedgerTools.create({ database: fixture.file });
    await first.transfer_eth("bob", "1");
    await first.ledger.close();
    const second = await LedgerTools.create({ database: fixture.file });
    expect((await second.list_accounts()).accounts.map((a) => [a.address, a.balance])).toStrictEqual([
      ["alice", "99"],
      ["bob", "101"],
      ["carol", "100"],
      ["dave", "100"],
    ]);
    await second.ledger.close();
  });

  it("lists transactions newest first and funds accounts from the faucet", async () => {
    expect(await call(tools, "faucet", { address: "Eve" })).toStrictEqual({
      tx_id: 5,
      kind: "mint",
      from: null,
      to: "eve",
      amount: "10",
      amount_wei: "10000000000000000000",
      created_at: "2025-05-06T07:08:09.000Z",
    });
    await call(tools, "transfer_eth", { to_address: "alice", amount: "2.5", sender: "eve" });
    const page = (await call(tools, "list_transactions", { address: "eve", limit: 1 })) as {
      transactions: { tx_id: number; amount: string }[];
    };
    expect(page.transactions.map((t) => [t.tx_id, t.amount])).toStrictEqual([[6, "2.5"]]);
    const older = (await call(tools, "list_transactions", { address: "eve", before_id: 6 })) as typeof page;
    expect(older.transactions.map((t) => [t.tx_id, t.amount])).toStrictEqual([[5, "10"]]);
  });
});
