import ts from "typescript-5";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFixture } from "../../../../examples/ledger/test/support/backends.ts";
import { LedgerTools } from "../../../../examples/ledger/tools.ts";
import { createManifest } from "../../../../generated/ledger/server.ts";
import { manifest as smartHome } from "../../../../generated/smart-home/server.ts";
import { connectInMemory } from "../../src/client/index.ts";
import { type CodeMode, codeMode, codeResultText } from "../../src/code/index.ts";
import { serve } from "../../src/server/index.ts";

/** `codeMode()`: one warm checker and sandbox over two in-process servers, check then run. */
let code: CodeMode;
let fixture: Awaited<ReturnType<typeof sqliteFixture>>;
let tools: LedgerTools;

beforeAll(async () => {
  fixture = await sqliteFixture();
  tools = await LedgerTools.create({ database: fixture.file });
  code = await codeMode({
    servers: [{ manifest: createManifest({ LedgerTools: tools }) }, { manifest: smartHome }],
    typescript: ts,
  });
});
afterAll(async () => {
  await code.close();
  await tools.ledger.close();
  await fixture.dispose();
});

describe("codeMode", () => {
  it("describes both servers, namespaced by the identifier rule", () => {
    expect(code.description.form).toBe("declarations");
    expect(code.description.text).toContain("declare namespace ledger {");
    expect(code.description.text).toContain("declare const smart_home:{");
    expect(code.describe("ledger.get_balance")).toMatchObject({ ok: true });
  });

  it("refuses an ill-typed program with its line, and makes no call", async () => {
    const result = await code.run(
      `await ledger.faucet({ address: "alice" });\nconst b = await ledger.get_balance({ adress: "alice" });\nreturn b.balance;`,
    );
    expect(result.ok).toBe(false);
    expect(result.calls).toStrictEqual([]);
    expect(result.diagnostics.map((d) => d.line)).toStrictEqual([2]);
    expect(codeResultText(result)).toMatch(/^The program did not type-check, so nothing ran:\n2:\d+ /);
    expect((await tools.get_balance("alice")).balance).toBe("100");
  });

  it("runs a checked program over both servers with the generated validators", async () => {
    const result = await code.run(
      `const [b, found] = await Promise.all([
  ledger.get_balance({ address: "bob" }),
  smart_home.search_devices({ query: "灯" }),
]);
console.log("devices", found.length);
return { balance: b.balance, devices: found.length > 0 };`,
    );
    expect(result).toMatchObject({ ok: true, value: { balance: "100", devices: true }, diagnostics: [] });
    expect(result.calls.map((c) => c.tool)).toStrictEqual([
      "ledger.get_balance",
      "smart_home.search_devices",
    ]);
  });

  it("refuses a destructive call without a permission hook, and runs it with one", async () => {
    const program = `try {
  await ledger.transfer_eth({ to_address: "bob", amount: "1", sender: "alice", idempotency_key: "k-1" });
  return "sent";
} catch (e) { return (e as Error).name; }`;
    expect(await code.run(program)).toMatchObject({ ok: true, value: "PermissionError" });
    const asked: string[] = [];
    const allowed = await code.run(program, {
      permission: ({ fn, arguments: args }) => {
        asked.push(`${fn} ${args.amount}`);
        return true;
      },
    });
    expect(allowed).toMatchObject({ ok: true, value: "sent" });
    expect(asked).toStrictEqual(["transfer_eth 1"]);
    expect((await tools.get_balance("bob")).balance).toBe("101");
  });

  it("reports a runtime error with its line", async () => {
    const result = await code.run(
      `const b = await ledger.get_balance({ address: "bob" });\nthrow new Error("no " + b.address);`,
    );
    expect(result).toMatchObject({ ok: false, error: { kind: "error", line: 2 } });
    expect(codeResultText(result)).toContain("The program failed at 2:");
  });
});

describe("codeMode over an mcp-gen server through the SDK client", () => {
  it.each([
    "legacy",
    "2026-07-28",
  ] as const)("unwraps a wrapped result by the listing's _meta, without the generated specs (%s)", async (era) => {
    const connection = await connectInMemory(
      {
        connect: async (transport) => {
          await serve(smartHome, { transport });
        },
      },
      { protocol: era },
    );
    const { tools: listed } = await connection.client.listTools();
    const overClient = await codeMode({
      servers: [{ name: "smart-home", client: connection.client, tools: listed as never[] }],
      typescript: ts,
    });
    try {
      const result = await overClient.run(
        `const found = await smart_home.search_devices({ query: "灯", limit: 2 });\nreturn found.map((d) => d.fullId);`,
      );
      expect(result).toMatchObject({ ok: true });
      expect(result.ok && Array.isArray(result.value) && result.value.length > 0).toBe(true);
    } finally {
      await overClient.close();
      await connection.close();
    }
  });
});
