import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFixture } from "../../../../examples/ledger/test/support/backends.ts";
import { LedgerTools } from "../../../../examples/ledger/tools.ts";
import { validators } from "../../../../generated/ledger/index.ts";
import { createManifest } from "../../../../generated/ledger/server.ts";
import { connectInMemory, connectStdio } from "../../src/client/index.ts";
import {
  bindClientTools,
  createSandbox,
  type ProgramApi,
  type Sandbox,
  type ToolBinding,
} from "../../src/code/index.ts";
import { serve } from "../../src/server/index.ts";

/** Concurrency, time limit and cancellation as the tools see them, and tools reached through real MCP clients. */
let sandbox: Sandbox;
beforeAll(() => {
  sandbox = createSandbox();
});
afterAll(() => sandbox.close());

/** A tool that answers only once `expected` calls are in flight together, and records what it saw. */
function gate(expected: number) {
  const seen = { started: 0, maxInFlight: 0, aborted: 0 };
  let inFlight = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const binding: ToolBinding = {
    async call(args, { signal }) {
      seen.started++;
      inFlight++;
      seen.maxInFlight = Math.max(seen.maxInFlight, inFlight);
      if (inFlight === expected) open();
      if (signal.aborted) seen.aborted++;
      else signal.addEventListener("abort", () => seen.aborted++);
      await opened;
      inFlight--;
      return { content: [], structuredContent: { echo: args } };
    },
  };
  return { seen, binding };
}

describe("run: concurrency, time limit and cancellation", () => {
  it("runs the calls of Promise.all concurrently in the host", async () => {
    const { seen, binding } = gate(3);
    const result = await sandbox.run("return await Promise.all([1, 2, 3].map((i) => gate.wait({ i })));", {
      api: { gate: { wait: binding } },
    });
    expect(result).toMatchObject({
      ok: true,
      value: [{ echo: { i: 1 } }, { echo: { i: 2 } }, { echo: { i: 3 } }],
    });
    expect(seen.maxInFlight).toBe(3);
  });

  it("stops a run whose call never answers at the time limit, aborting the call", async () => {
    const { seen, binding } = gate(2);
    const result = await sandbox.run("return await gate.wait({});", {
      api: { gate: { wait: binding } },
      limits: { timeMs: 300 },
    });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: "time", message: "the program ran past its time limit and was stopped (limit: 300 ms)" },
      calls: [{ tool: "gate.wait", outcome: "cancelled" }],
    });
    expect(seen.aborted).toBe(1);
  });

  it("cancels the whole run through its AbortSignal", async () => {
    const { seen, binding } = gate(5);
    const controller = new AbortController();
    const cancelling: ToolBinding = {
      call: async (args, options) => {
        controller.abort();
        return binding.call(args, options);
      },
    };
    const result = await sandbox.run('await gate.cancel({});\nreturn "not reached";', {
      api: { gate: { cancel: cancelling } },
      signal: controller.signal,
    });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: "cancelled", message: "the run was cancelled" },
      calls: [{ tool: "gate.cancel", outcome: "cancelled" }],
    });
    expect(seen).toStrictEqual({ started: 1, maxInFlight: 1, aborted: 1 });
    const started = gate(1);
    const busy = new AbortController();
    const running = sandbox.run("while (true) {}", { api: {}, signal: busy.signal });
    setImmediate(() => busy.abort());
    expect(await running).toMatchObject({ ok: false, error: { kind: "cancelled" } });
    expect(
      await sandbox.run("return await gate.wait({ x: 1 });", { api: { gate: { wait: started.binding } } }),
    ).toMatchObject({
      ok: true,
      value: { echo: { x: 1 } },
    });
  });
});

it("refuses a destructive call when the permission hook fails, with its reason", async () => {
  let ran = 0;
  const drop: ToolBinding = {
    destructive: true,
    call: async () => {
      ran++;
      return { content: [{ type: "text", text: "dropped" }] };
    },
  };
  const result = await sandbox.run(
    "try { return await db.drop({}); } catch (e) { return e.name + ': ' + e.message; }",
    {
      api: { db: { drop } },
      permission: () => {
        throw new Error("no terminal to ask on");
      },
    },
  );
  expect(result).toMatchObject({
    ok: true,
    value:
      "PermissionError: db.drop was not run: it is destructive and the permission check failed (no terminal to ask on). Do not retry it; tell the user what you meant to do.",
    calls: [{ tool: "db.drop", outcome: "denied" }],
  });
  expect(ran).toBe(0);
  const allowed = await sandbox.run("return await db.drop({});", {
    api: { db: { drop } },
    permission: () => true,
  });
  expect(allowed).toMatchObject({ ok: true, value: "dropped" });
  expect(ran).toBe(1);
});

it("ends a run in progress when its sandbox is closed", async () => {
  const own = createSandbox();
  const { seen, binding } = gate(2);
  const running = own.run("return await gate.wait({});", { api: { gate: { wait: binding } } });
  const started = new Promise<void>((resolve) => {
    const poll = () => (seen.started > 0 ? resolve() : setImmediate(poll));
    poll();
  });
  await started;
  await own.close();
  expect(await running).toMatchObject({
    ok: false,
    error: { kind: "sandbox", message: "the sandbox was closed during the run" },
    calls: [{ tool: "gate.wait", outcome: "cancelled" }],
  });
  expect(seen.aborted).toBe(1);
});

it("does not run a call the program never awaited, and records it", async () => {
  const { seen, binding } = gate(1);
  const result = await sandbox.run('gate.wait({ late: true });\nreturn "done";', {
    api: { gate: { wait: binding } },
  });
  expect(result).toStrictEqual({
    ok: true,
    value: "done",
    logs: [],
    calls: [
      {
        tool: "gate.wait",
        arguments: { late: true },
        outcome: "cancelled",
        error: "not run: the program ended without awaiting it",
        ms: 0,
      },
    ],
  });
  expect(seen.started).toBe(0);
});

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
