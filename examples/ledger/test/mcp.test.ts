import { readFileSync } from "node:fs";
import { type Connection, connectInMemory } from "@mcp-gen/runtime/client";
import { type McpGenServerEvent, type RunningServer, serve } from "@mcp-gen/runtime/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createManifest } from "../../../generated/ledger/server.ts";
import { LedgerTools } from "../tools.ts";
import { sqliteFixture } from "./support/backends.ts";

const contract = JSON.parse(
  readFileSync(new URL("../../../schemas/ledger.tools.json", import.meta.url), "utf8"),
);

/** The generated manifest served in memory with errors masked: only the ledger's refusals get through. */
describe("ledger tools over MCP (in memory)", () => {
  let fixture: Awaited<ReturnType<typeof sqliteFixture>>;
  let tools: LedgerTools;
  let client: Connection["client"];
  let stop: () => Promise<void>;
  const events: McpGenServerEvent[] = [];

  beforeEach(async () => {
    fixture = await sqliteFixture();
    tools = await LedgerTools.create({ database: fixture.file });
    let server: RunningServer | undefined;
    const connection = await connectInMemory(
      {
        connect: async (transport) => {
          server = await serve(createManifest({ LedgerTools: tools }), {
            transport,
            maskErrors: true,
            onError: (e) => events.push(e),
          });
        },
      },
      { clientInfo: { name: "ledger-test", version: "1.0.0" } },
    );
    client = connection.client;
    stop = async () => {
      await connection.close();
      await server?.close();
    };
  });

  afterEach(async () => {
    await stop();
    await tools.ledger.close();
    await fixture.dispose();
    events.length = 0;
  });

  const balances = async () => (await tools.ledger.listAccounts()).map((a) => `${a.address}=${a.balanceWei}`);

  it("lists the contract's tools", async () => {
    // A 2026-07-28 tool has no `execution` (the SDK drops it: tasks are an extension there).
    const listed = contract.tools.map(({ execution: _, ...tool }: Record<string, unknown>) => tool);
    expect((await client.listTools()).tools).toStrictEqual(listed);
    expect(contract.tools.filter((t: { execution?: unknown }) => t.execution)).toMatchObject([
      { name: "export_statement", execution: { taskSupport: "optional" } },
    ]);
  });

  it("transfers from the demo user (create(): alice, demo accounts funded) and returns the receipt", async () => {
    const result = await client.callTool({
      name: "transfer_eth",
      arguments: { to_address: "bob", amount: "10" },
    });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({
      from: "alice",
      to: "bob",
      amount: "10",
      sender_balance: "90",
    });
    expect(await balances()).toStrictEqual([
      "alice=90000000000000000000",
      "bob=110000000000000000000",
      "carol=100000000000000000000",
      "dave=100000000000000000000",
    ]);
  });

  it.each([
    [{ to_address: "bob", amount: 10 }, "/amount: expected a string"],
    [{ to_address: "bob", amount: "-1" }, "/amount: expected a string matching"],
    [{ to_address: "bob", amount: "1.0000000000000000001" }, "/amount: expected a string matching"],
    [{ to_address: "bob", amount: "0" }, 'amount "0" is zero; send more than 0'],
    [
      { to_address: "bob", amount: "100.5" },
      'insufficient funds: "alice" has 100 ETH, the transfer needs 100.5 ETH',
    ],
    [{ to_address: "bob", amount: "1", sender: "eve" }, 'sender "eve" has no account'],
  ])("answers %j with a clear tool error and moves nothing", async (args, message) => {
    const before = await balances();
    const result = await client.callTool({ name: "transfer_eth", arguments: args });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toContain(message);
    expect(await balances()).toStrictEqual(before);
    expect(events).toStrictEqual([]);
  });
});
