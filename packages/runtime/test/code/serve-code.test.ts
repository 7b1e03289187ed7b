import { serve } from "@mcp-gen/runtime/server";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import ts from "typescript-5";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sqliteFixture } from "../../../../examples/ledger/test/support/backends.ts";
import { LedgerTools } from "../../../../examples/ledger/tools.ts";
import { createManifest } from "../../../../generated/ledger/server.ts";
import { withCodeTool } from "../../src/code/index.ts";

/**
 * The code tool served by `serve()` to the SDK v2 client (in memory, both protocol eras): the
 * client is the permission hook of destructive calls inside the program, through elicitation.
 */
let fixture: Awaited<ReturnType<typeof sqliteFixture>>;
let tools: LedgerTools;
const open: { close(): Promise<void> }[] = [];
beforeEach(async () => {
  fixture = await sqliteFixture();
  tools = await LedgerTools.create({ database: fixture.file });
});
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
  await tools.ledger.close();
  await fixture.dispose();
});

const TRANSFER = `try {
  const r = await ledger.transfer_eth({ to_address: "bob", amount: "5", sender: "alice", idempotency_key: "code-1" });
  return { sent: r.amount };
} catch (e) {
  return { refused: (e as Error).message };
}`;

async function connect(options: {
  era: "legacy" | "2026-07-28";
  answer?: "accept" | "decline";
  allowDestructive?: boolean;
  only?: boolean;
}): Promise<{ client: Client; asked: string[] }> {
  const coded = await withCodeTool({
    manifest: createManifest({ LedgerTools: tools }),
    only: options.only ?? true,
    allowDestructive: options.allowDestructive ?? false,
    typescript: ts,
  });
  open.push(coded);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  open.push(await serve(coded.manifest, { transport: serverSide as never, onError: () => {} }));
  const client = new Client(
    { name: "code-test", version: "1.0.0" },
    {
      ...(options.era === "2026-07-28" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
      capabilities: options.answer ? { elicitation: { form: {} } } : {},
    },
  );
  const asked: string[] = [];
  if (options.answer) {
    client.setRequestHandler("elicitation/create", (request) => {
      asked.push(request.params.message);
      return options.answer === "accept"
        ? { action: "accept", content: { allow: true } }
        : { action: "decline" };
    });
  }
  await client.connect(clientSide);
  open.push(client);
  return { client, asked };
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

describe.each(["legacy", "2026-07-28"] as const)("serve() with the code tool (%s)", (era) => {
  it("lists the code tool alone (only) with the declarations, and runs a checked program", async () => {
    const { client } = await connect({ era });
    const { tools: listed } = await client.listTools();
    expect(listed.map((t) => t.name)).toStrictEqual(["run_program"]);
    expect(listed[0]!.description).toContain("declare namespace ledger {");
    const result = await client.callTool({
      name: "run_program",
      arguments: { program: `const b = await ledger.get_balance({ address: "alice" });\nreturn b.balance;` },
    });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('"100"');
  });

  it("answers a program that does not type-check with its line, and runs nothing", async () => {
    const { client, asked } = await connect({ era, answer: "accept" });
    const result = await client.callTool({
      name: "run_program",
      arguments: { program: `await ledger.transfer_eth({ to_address: "bob", amount: 5 });\nreturn 1;` },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^The program did not type-check, so nothing ran:\n1:\d+ /);
    expect(asked).toStrictEqual([]);
    expect((await tools.get_balance("bob")).balance).toBe("100");
  });

  it("asks the user through elicitation: accepted, the transfer runs", async () => {
    const { client, asked } = await connect({ era, answer: "accept" });
    const result = await client.callTool({ name: "run_program", arguments: { program: TRANSFER } });
    expect(JSON.parse(textOf(result))).toStrictEqual({ sent: "5" });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^A program wants to call ledger\.transfer_eth, which is destructive, with \{/);
    expect((await tools.get_balance("bob")).balance).toBe("105");
  });

  it("asks the user through elicitation: declined, refused inside the program", async () => {
    const { client } = await connect({ era, answer: "decline" });
    const result = await client.callTool({ name: "run_program", arguments: { program: TRANSFER } });
    expect(JSON.parse(textOf(result).split("\n\n")[0]!).refused).toContain("the user answered decline");
    expect((await tools.get_balance("bob")).balance).toBe("100");
  });

  it("refuses a destructive call when the client cannot be asked, unless the server allows it", async () => {
    const refused = await connect({ era });
    const result = await refused.client.callTool({ name: "run_program", arguments: { program: TRANSFER } });
    expect(JSON.parse(textOf(result).split("\n\n")[0]!).refused).toContain("does not support elicitation");
    expect((await tools.get_balance("bob")).balance).toBe("100");

    const allowed = await connect({ era, allowDestructive: true, only: false });
    const { tools: listed } = await allowed.client.listTools();
    expect(listed.map((t) => t.name)).toContain("transfer_eth");
    expect(listed.map((t) => t.name)).toContain("run_program");
    const ran = await allowed.client.callTool({ name: "run_program", arguments: { program: TRANSFER } });
    expect(JSON.parse(textOf(ran))).toStrictEqual({ sent: "5" });
  });
});

describe("withCodeTool and OAuth scopes", () => {
  it("gives the code tool every scope the tools need, since a program may call any of them", async () => {
    const manifest = createManifest({ LedgerTools: tools });
    const scoped = {
      ...manifest,
      tools: manifest.tools.map((t) =>
        t.definition.name === "transfer_eth"
          ? { ...t, scopes: ["ledger:write"] }
          : t.definition.name === "get_balance"
            ? { ...t, scopes: ["ledger:read"] }
            : t,
      ),
    };
    const coded = await withCodeTool({ manifest: scoped, only: true, typescript: ts });
    open.push(coded);
    expect(coded.manifest.tools.map((t) => [t.definition.name, t.scopes])).toStrictEqual([
      ["run_program", ["ledger:read", "ledger:write"]],
    ]);
  });
});
