import { type McpGenServerEvent, type McpGenServerOptions, serve } from "@mcp-gen/runtime/server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Counter, executions, resetProbe } from "./fixtures/probe/tools.ts";
import { type BuiltProbe, buildProbe, listedTools } from "./support/probe.ts";

let probe: BuiltProbe;
beforeAll(async () => {
  probe = await buildProbe();
});
afterAll(() => probe.dispose());

const events: McpGenServerEvent[] = [];
const open: { close(): Promise<void> }[] = [];

/** A client connected in memory to a fresh probe server. */
async function connect(
  options: McpGenServerOptions = {},
  capabilities: Client["_capabilities"] = {},
): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const manifest = probe.createManifest({ Counter: new Counter(2) });
  open.push(await serve(manifest, { transport: serverSide, onError: (e) => events.push(e), ...options }));
  const client = new Client({ name: "test", version: "1.0.0" }, { capabilities });
  await client.connect(clientSide);
  open.push(client);
  return client;
}

beforeEach(() => {
  resetProbe();
  events.length = 0;
});
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

describe("tools/list", () => {
  it("lists exactly the tools of the contract", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools).toStrictEqual(listedTools(probe.contract));
  });
});

describe("valid calls", () => {
  it("returns a wrapped result as structuredContent and its text", async () => {
    const client = await connect();
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: 3.5 } });
    expect(result).toStrictEqual({
      content: [{ type: "text", text: '{"result":5.5}' }],
      structuredContent: { result: 5.5 },
    });
    expect(executions).toStrictEqual([{ tool: "add", args: [2, 3.5] }]);
  });

  it("leaves an omitted argument to the function's default", async () => {
    const client = await connect();
    const result = await client.callTool({ name: "search", arguments: { query: "lamp" } });
    expect(result.structuredContent).toStrictEqual({
      result: [
        { id: 1, title: "lamp 1" },
        { id: 2, title: "lamp 2" },
        { id: 3, title: "lamp 3" },
      ],
    });
    expect(executions).toStrictEqual([{ tool: "search", args: ["lamp", 5] }]);
  });

  it("passes the arguments object to a destructured parameter", async () => {
    const client = await connect();
    const result = await client.callTool({ name: "create_note", arguments: { title: "Todo", body: "milk" } });
    expect(result.structuredContent).toStrictEqual({ id: "todo-4", tags: [] });
    expect(result.content).toStrictEqual([{ type: "text", text: '{"id":"todo-4","tags":[]}' }]);
  });

  it("calls methods on the instance given to createManifest", async () => {
    const client = await connect();
    await client.callTool({ name: "increment", arguments: {} });
    const result = await client.callTool({ name: "increment", arguments: { times: 2 } });
    expect(result.structuredContent).toStrictEqual({ result: 6 });
  });

  it("hands Date parameters to the tool as Dates, nested ones too", async () => {
    const client = await connect();
    const result = await client.callTool({
      name: "days_until",
      arguments: { from: "2026-11-21T00:00:00Z", events: [{ at: "2026-11-23T00:00:00Z", label: "x" }] },
    });
    expect(result.structuredContent).toStrictEqual({ days: [2], dates: true });
  });

  it("hands URL parameters to the tool as URLs, nested ones too, and sends URLs as strings", async () => {
    const client = await connect();
    const result = await client.callTool({
      name: "host_of",
      arguments: { link: "https://example.com/a/b?c=1", mirrors: [{ at: "http://mirror.test/x" }] },
    });
    expect(result.structuredContent).toStrictEqual({
      host: "example.com",
      urls: true,
      canonical: "https://example.com/",
    });
    const invalid = await client.callTool({ name: "host_of", arguments: { link: "not a url", mirrors: [] } });
    expect(invalid.isError).toBe(true);
  });

  it("sends Dates in their JSON form", async () => {
    const client = await connect();
    const result = await client.callTool({ name: "when", arguments: {} });
    expect(result.structuredContent).toStrictEqual({ at: "2026-01-02T03:04:05.000Z" });
  });

  it("sends content blocks as they are, and nothing for void", async () => {
    const client = await connect();
    expect(await client.callTool({ name: "picture", arguments: {} })).toStrictEqual({
      content: [
        { type: "text", text: "a red pixel" },
        { type: "image", data: "iVBORw==", mimeType: "image/png" },
      ],
    });
    expect(await client.callTool({ name: "noop" })).toStrictEqual({ content: [] });
  });
});

describe("invalid calls", () => {
  const cases: [string, string, Record<string, unknown>, string][] = [
    ["a wrong type", "add", { a: "2", b: 3 }, '- /a: expected a number, received string "2"'],
    ["a missing field", "add", { a: 2 }, "- /b: expected this required property, received nothing"],
    [
      "an extra field",
      "add",
      { a: 1, b: 2, c: 3 },
      '- /c: expected no property "c" (unknown properties are not allowed: remove it), received number 3',
    ],
    [
      "a value out of range",
      "search",
      { query: "x", limit: 0 },
      "- /limit: expected a number >= 1, received number 0",
    ],
    [
      "a non-integer",
      "search",
      { query: "x", limit: 1.5 },
      "- /limit: expected an integer, received number 1.5",
    ],
  ];
  it.each(cases)("returns feedback for %s and never runs the tool", async (_, name, args, line) => {
    const client = await connect();
    const result = await client.callTool({ name, arguments: args });
    expect(result).toStrictEqual({
      content: [{ type: "text", text: `Invalid arguments of tool "${name}": 1 problem\n${line}` }],
      isError: true,
    });
    expect(executions).toStrictEqual([]);
  });

  it("rejects nested prototype keys before validation", async () => {
    const client = await connect();
    const args = JSON.parse('{"data":{"ok":1,"__proto__":{"polluted":true}}}');
    expect(await client.callTool({ name: "save", arguments: args })).toStrictEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments of tool "save": 1 problem\n- /data/__proto__: expected no __proto__ key, received object {"polluted":true}',
        },
      ],
      isError: true,
    });
    const ctor = JSON.parse('{"data":{"constructor":{"prototype":{"polluted":true}}}}');
    expect((await client.callTool({ name: "save", arguments: ctor })).isError).toBe(true);
    expect(executions).toStrictEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("rejects a top-level __proto__ key too", async () => {
    const client = await connect();
    const args = JSON.parse('{"title":"t","body":"b","__proto__":{"tags":["x"]}}');
    expect(await client.callTool({ name: "create_note", arguments: args })).toStrictEqual({
      content: [
        {
          type: "text",
          text: 'Invalid arguments of tool "create_note": 1 problem\n- /__proto__: expected no __proto__ key, received object {"tags":["x"]}',
        },
      ],
      isError: true,
    });
    expect(executions).toStrictEqual([]);
  });

  it("answers an unknown tool with JSON-RPC error -32602", async () => {
    const client = await connect();
    const error = await client.callTool({ name: "nope", arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toBe('MCP error -32602: Unknown tool: "nope"');
    expect(executions).toStrictEqual([]);
  });

  it("answers malformed tools/call params with -32602", async () => {
    const client = await connect();
    for (const params of [
      { name: 5 },
      { name: "add", arguments: [1, 2] },
      { name: "add", arguments: null },
    ]) {
      const error = await client
        .request({ method: "tools/call", params } as never, CallToolResultSchema)
        .catch((e: unknown) => e);
      expect([(error as McpError).code, (error as McpError).message]).toStrictEqual([
        -32602,
        "MCP error -32602: Invalid params: tools/call takes a string name and an arguments object",
      ]);
    }
    expect(executions).toStrictEqual([]);
  });

  it("does not mistake a prototype name for a tool", async () => {
    const client = await connect();
    const error = await client.callTool({ name: "constructor", arguments: {} }).catch((e: unknown) => e);
    expect((error as McpError).code).toBe(-32602);
  });
});

describe("failing tools", () => {
  it("returns the message of a thrown error as an isError result", async () => {
    const client = await connect();
    const result = await client.callTool({ name: "crash", arguments: { message: "disk on fire" } });
    expect(result).toStrictEqual({ content: [{ type: "text", text: "disk on fire" }], isError: true });
  });

  it("masks internal errors when asked, but never a ToolError", async () => {
    const client = await connect({ maskErrors: true });
    expect(
      await client.callTool({ name: "crash", arguments: { message: "secret path /etc" } }),
    ).toStrictEqual({
      content: [{ type: "text", text: 'Tool "crash" failed with an internal error.' }],
      isError: true,
    });
    expect(await client.callTool({ name: "refuse", arguments: { message: "say please" } })).toStrictEqual({
      content: [{ type: "text", text: "say please" }],
      isError: true,
    });
    expect(
      events.map((e) => e.kind === "tool-error" && [e.tool, e.masked, (e.error as Error).message]),
    ).toStrictEqual([["crash", true, "secret path /etc"]]);
  });

  it("logs a result that breaks its schema and returns isError", async () => {
    const client = await connect();
    const result = await client.callTool({ name: "broken", arguments: {} });
    expect(result).toStrictEqual({
      content: [
        {
          type: "text",
          text: 'Tool "broken" produced a result that does not match its output schema (a server bug; it was logged).',
        },
      ],
      isError: true,
    });
    expect(events).toStrictEqual([
      {
        kind: "invalid-result",
        tool: "broken",
        message:
          'Invalid result of tool "broken": 1 problem\n- /count: expected an integer, received string "many"',
        value: { count: "many" },
      },
    ]);
  });
});
