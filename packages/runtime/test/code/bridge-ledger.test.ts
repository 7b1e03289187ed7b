import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sqliteFixture } from "../../../../examples/ledger/test/support/backends.ts";
import { LedgerTools } from "../../../../examples/ledger/tools.ts";
import { createManifest } from "../../../../generated/ledger/server.ts";
import {
  bindManifest,
  createSandbox,
  type PermissionRequest,
  type ProgramApi,
  type Sandbox,
} from "../../src/code/index.ts";

/**
 * The bridge over the ledger example's generated manifest, in process: the generated validators,
 * the permission hook on `transfer_eth` (destructive), the ledger's refusals as tool errors, and
 * the calls record.
 */
let sandbox: Sandbox;
let fixture: Awaited<ReturnType<typeof sqliteFixture>>;
let tools: LedgerTools;
let api: ProgramApi;

beforeAll(() => {
  sandbox = createSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  fixture = await sqliteFixture();
  tools = await LedgerTools.create({ database: fixture.file });
  api = { ledger: bindManifest(createManifest({ LedgerTools: tools })) };
});
afterEach(async () => {
  await tools.ledger.close();
  await fixture.dispose();
});

const balanceOf = async (address: string) => (await tools.get_balance(address)).balance;

describe("run: the bridge to in-process tools", () => {
  it("runs a program of several calls and records each", async () => {
    const result = await sandbox.run(
      `const { accounts } = await ledger.list_accounts({});
const rich = accounts.filter((a) => Number(a.balance) >= 100).map((a) => a.address);
const balances = await Promise.all(rich.map((address) => ledger.get_balance({ address })));
console.log("accounts:", rich.length);
return balances.map((b) => b.address + "=" + b.balance);`,
      { api },
    );
    expect(result).toMatchObject({
      ok: true,
      value: ["alice=100", "bob=100", "carol=100", "dave=100"],
      logs: [{ level: "log", text: "accounts: 4" }],
    });
    expect(result.calls.map(({ ms, ...call }) => ({ ...call, ms: typeof ms }))).toStrictEqual([
      { tool: "ledger.list_accounts", arguments: {}, outcome: "ok", ms: "number" },
      ...["alice", "bob", "carol", "dave"].map((address) => ({
        tool: "ledger.get_balance",
        arguments: { address },
        outcome: "ok",
        ms: "number",
      })),
    ]);
  });

  it("throws the validator's feedback inside the program, which can catch it", async () => {
    const result = await sandbox.run(
      `try {
  await ledger.transfer_eth({ to_address: "bob", amount: 5 });
  return "sent";
} catch (e) {
  return { name: e.name, message: e.message };
}`,
      { api, permission: () => true },
    );
    expect(result).toMatchObject({
      ok: true,
      value: {
        name: "ValidationError",
        message:
          'Invalid arguments of tool "transfer_eth": 1 problem\n- /amount: expected a string, received number 5',
      },
    });
    expect(result.calls).toMatchObject([{ tool: "ledger.transfer_eth", outcome: "invalid-arguments" }]);
    expect(await balanceOf("bob")).toBe("100");
  });

  it("asks the permission hook before a destructive call, and a refusal never runs it", async () => {
    const asked: PermissionRequest[] = [];
    const program = `try {
  return await ledger.transfer_eth({ to_address: "bob", amount: "7", idempotency_key: "t-1" });
} catch (e) {
  return e.name + ": " + e.message;
}`;
    const denied = await sandbox.run(program, {
      api,
      permission: (request) => {
        asked.push(request);
        return false;
      },
    });
    expect(denied).toMatchObject({
      ok: true,
      value:
        "PermissionError: ledger.transfer_eth was not run: it is destructive and the user did not allow it. Do not retry it; tell the user what you meant to do.",
      calls: [{ tool: "ledger.transfer_eth", outcome: "denied" }],
    });
    expect(asked).toStrictEqual([
      {
        namespace: "ledger",
        fn: "transfer_eth",
        arguments: { to_address: "bob", amount: "7", idempotency_key: "t-1" },
      },
    ]);
    expect(await balanceOf("bob")).toBe("100");

    const without = await sandbox.run(program, { api });
    expect(without).toMatchObject({
      ok: true,
      value: expect.stringContaining("no one can approve destructive calls"),
    });
    expect(await balanceOf("bob")).toBe("100");

    const allowed = await sandbox.run(program, { api, permission: async () => true });
    expect(allowed).toMatchObject({
      ok: true,
      value: { to: "bob", amount: "7", sender_balance: "93", replayed: false },
    });
    expect(await balanceOf("bob")).toBe("107");
  });

  it("turns the tool's own error into a catchable error", async () => {
    const result = await sandbox.run(
      `try {
  await ledger.transfer_eth({ to_address: "bob", amount: "1000" });
} catch (e) {
  return e.name + ": " + e.message;
}`,
      { api, permission: () => true },
    );
    expect(result).toMatchObject({
      ok: true,
      value: expect.stringMatching(/^ToolError: ledger\.transfer_eth failed: .*insufficient/i),
    });
    expect(result.calls).toMatchObject([
      { outcome: "tool-error", error: expect.stringContaining("transfer_eth failed") },
    ]);
  });

  it("fails the run with an uncaught tool error, keeping the calls made", async () => {
    const result = await sandbox.run(
      'await ledger.get_balance({ address: "alice" });\nawait ledger.list_transactions({ limit: 0 });',
      { api },
    );
    expect(result).toMatchObject({
      ok: false,
      error: { kind: "error", name: "ValidationError", message: expect.stringContaining("/limit: expected") },
      calls: [{ outcome: "ok" }, { outcome: "invalid-arguments" }],
    });
  });

  it("answers a call of a function that is not in the API as a TypeError", async () => {
    const result = await sandbox.run(
      "return typeof ledger.drop_tables + ' ' + Object.keys(ledger).sort().join(',');",
      { api },
    );
    expect(result).toMatchObject({
      ok: true,
      value: "undefined export_statement,faucet,get_balance,list_accounts,list_transactions,transfer_eth",
    });
  });
});
