import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFixture } from "../../../../examples/ledger/test/support/backends.ts";
import { LedgerTools } from "../../../../examples/ledger/tools.ts";
import { validators } from "../../../../generated/ledger/index.ts";
import { createManifest } from "../../../../generated/ledger/server.ts";
import { connectInMemory, connectStdio } from "../../src/client/index.ts";
import { bindClientTools, createSandbox, type ProgramApi, type Sandbox } from "../../src/code/index.ts";
import { serve } from "../../src/server/index.ts";

/** Tools reached through real MCP clients: an mcp-gen server in memory, third-party servers over stdio. */
let sandbox: Sandbox;
beforeAll(() => {
  sandbox = createSandbox();
});
afterAll(() => sandbox.close());

describe("run: tools through MCP clients", () => {
  it("calls an mcp-gen server through the SDK client (in memory), with its generated validators", async () => {
    const fixture = await sqliteFixture();
    const tools = await LedgerTools.create({ database: fixture.file });
    const connection = await connectInMemory({
      connect: async (transport) => {
        await serve(createManifest({ LedgerTools: tools }), { transport });
      },
    });
    try {
      const { tools: definitions } = await connection.client.listTools();
      const api: ProgramApi = {
        ledger: bindClientTools({ client: connection.client, tools: definitions, specs: validators }),
      };
      const result = await sandbox.run(
        `const before = await ledger.get_balance({ address: "carol" });
let refused = "";
try { await ledger.get_balance({ address: "no spaces allowed" }); } catch (e) { refused = e.name; }
const receipt = await ledger.transfer_eth({ to_address: "carol", amount: "2.5", sender: "dave" });
const after = await ledger.get_balance({ address: "carol" });
return { before: before.balance, refused, tx: receipt.kind, after: after.balance };`,
        { api, permission: ({ fn }) => fn === "transfer_eth" },
      );
      expect(result).toMatchObject({
        ok: true,
        value: { before: "100", refused: "ValidationError", tx: "transfer", after: "102.5" },
      });
      expect(result.calls.map((c) => c.outcome)).toStrictEqual(["ok", "invalid-arguments", "ok", "ok"]);
    } finally {
      await connection.close();
      await tools.ledger.close();
      await fixture.dispose();
    }
  });

  it("calls a third-party server over stdio (server-memory, no generated validators)", async () => {
    const server = path.join(
      import.meta.dirname,
      "../../../../node_modules/@modelcontextprotocol/server-memory/dist/index.js",
    );
    const env = {
      MEMORY_FILE_PATH: path.join(tmpdir(), `mcp-gen-code-memory-${process.pid}-${Date.now()}.jsonl`),
    };
    const connection = await connectStdio({
      command: process.execPath,
      args: [server],
      env,
      stderr: "ignore",
    });
    try {
      const { tools } = await connection.client.listTools();
      const api: ProgramApi = { memory: bindClientTools({ client: connection.client, tools }) };
      const result = await sandbox.run(
        `await memory.create_entities({ entities: [{ name: "ada", entityType: "person", observations: ["wrote the first program"] }] });
const graph = await memory.read_graph({});
const data = typeof graph === "string" ? JSON.parse(graph) : graph;
return data.entities.map((e) => e.name + ": " + e.observations.join("; "));`,
        { api, permission: () => true },
      );
      expect(result).toMatchObject({ ok: true, value: ["ada: wrote the first program"] });
      expect(result.calls.map((c) => [c.tool, c.outcome])).toStrictEqual([
        ["memory.create_entities", "ok"],
        ["memory.read_graph", "ok"],
      ]);
    } finally {
      await connection.close();
    }
  });

  it("calls server-everything over stdio: tool names that are not identifiers, structured and text results, its errors", async () => {
    const server = path.join(
      import.meta.dirname,
      "../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    const connection = await connectStdio({
      command: process.execPath,
      args: [server, "stdio"],
      stderr: "ignore",
    });
    try {
      const { tools } = await connection.client.listTools();
      const api: ProgramApi = { everything: bindClientTools({ client: connection.client, tools }) };
      const result = await sandbox.run(
        `const weather = await everything["get-structured-content"]({ location: "Chicago" });
const sum = await everything["get-sum"]({ a: 2, b: 3 });
let refused = "";
try { await everything["get-sum"]({ a: "two", b: 3 }); } catch (e) { refused = e.name; }
return { conditions: typeof weather.conditions, sum, refused };`,
        { api, permission: () => true },
      );
      expect(result).toMatchObject({
        ok: true,
        value: { conditions: "string", sum: expect.stringContaining("5"), refused: "ToolError" },
      });
      expect(result.calls.map((c) => [c.tool, c.outcome])).toStrictEqual([
        ["everything.get-structured-content", "ok"],
        ["everything.get-sum", "ok"],
        ["everything.get-sum", "tool-error"],
      ]);
    } finally {
      await connection.close();
    }
  });
});
