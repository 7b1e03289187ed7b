import { tmpdir } from "node:os";
import path from "node:path";
import { allowAll, type CanUseTool, createAgent, formatEvent, mcpTools } from "@mcp-gen/runtime/agent";
import ts from "typescript-5";
import { afterEach, describe, expect, it } from "vitest";
import { sqliteFixture } from "../../../../examples/ledger/test/support/backends.ts";
import { LedgerTools } from "../../../../examples/ledger/tools.ts";
import { createManifest } from "../../../../generated/ledger/server.ts";
import { type ScriptedModel, startScriptedModel } from "../../src/testing/index.ts";
import { collect, modelFor, type Provider, smartHome } from "./support.ts";

let scripted: ScriptedModel | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
});

const program = (text: string) => ({ toolCalls: [{ name: "run_program", arguments: { program: text } }] });

/** Seed 000 in code mode: search then execute in one program, after a program that did not type-check. */
const SEED_000 = [
  program(`const found = await smart_home.search_device({ query: "客厅 灯" });\nreturn found;`),
  program(`const found = await smart_home.search_devices({ query: "客厅 灯", limit: 5 });
const light = found[0];
if (found.length === 0 || !light) return "no light";
const r = await smart_home.execute_commands({
  device_id: light.fullId,
  commands: [{ component: "main", capability: "switch", command: "on" }],
});
return { device: light.fullId, status: r.status };`),
  (request: { toolResults: { content: string }[] }) => ({
    text:
      JSON.parse(request.toolResults[0]!.content).status === "ACCEPTED"
        ? "已成功打开客厅吸顶灯"
        : "没能打开灯",
  }),
];

describe.each(["anthropic", "openai"] as Provider[])("code mode through the %s SDK", (provider) => {
  it("seed 000: a type error comes back with 0 calls, then one program searches and switches the light on", async () => {
    scripted = await startScriptedModel({ script: SEED_000 });
    const home = smartHome();
    const agent = createAgent({
      model: modelFor(provider, scripted),
      tools: [home.manifest],
      canUseTool: allowAll,
      code: { typescript: ts },
    });
    try {
      const { events, result } = await collect(agent.run("打开客厅的灯"));
      const call = events.find((e) => e.type === "tool-call");
      expect(formatEvent(call!)).toBe(
        '→ run_program\n  const found = await smart_home.search_device({ query: "客厅 灯" });\n  return found;',
      );
      expect(
        events.flatMap((e) =>
          e.type === "tool-log" ? [String(e.data).replace(/\(\d+ ms\)/, "(… ms)")] : [],
        ),
      ).toStrictEqual([
        'smart_home.search_devices {"query":"客厅 灯","limit":5} → ok (… ms)',
        'smart_home.execute_commands {"device_id":"uuid-abc123","commands":[{"component":"main","capability":"switch","command":"on"}]} → ok (… ms)',
      ]);
      expect(result.text).toBe("已成功打开客厅吸顶灯");
      expect(result.steps).toBe(3);
      expect(scripted.rejected).toStrictEqual([]);
      expect(scripted.requests.map((r) => r.tools)).toStrictEqual(Array(3).fill(["run_program"]));
      const description = scripted.requests[0]!.body.tools[0];
      expect(JSON.stringify(description)).toContain("declare const smart_home:{");
      const [typeError, ran] = [scripted.requests[1]!.toolResults[0]!, scripted.requests[2]!.toolResults[0]!];
      expect(typeError.isError).toBe(true);
      expect(typeError.content).toMatch(
        /^(Error: )?The program did not type-check, so nothing ran:\n1:\d+ .*search_device/,
      );
      expect(JSON.parse(ran.content)).toStrictEqual({ device: "uuid-abc123", status: "ACCEPTED" });
      expect(home.calls.map((c) => c.tool)).toStrictEqual(["search_devices", "execute_commands"]);
      expect(home.registry.get("uuid-abc123")?.state.switch).toBe("on");
    } finally {
      await agent.close();
    }
  });
});

/** Seed 004 in code mode: the transfer with its idempotency key; canUseTool decides inside the program. */
describe("code mode: the ledger transfer (seed 004)", () => {
  const transfer = program(`const before = await ledger.get_balance({ address: "bob" });
let receipt;
try {
  receipt = await ledger.transfer_eth({ to_address: "bob", amount: "10", sender: "alice", idempotency_key: "seed-004-1" });
} catch (e) {
  return { refused: (e as Error).name, message: (e as Error).message };
}
const again = await ledger.transfer_eth({ to_address: "bob", amount: "10", sender: "alice", idempotency_key: "seed-004-1" });
const after = await ledger.get_balance({ address: "bob" });
return { before: before.balance, tx: receipt.tx_id, replayed: again.tx_id === receipt.tx_id, after: after.balance };`);

  it.each([
    { decision: "allow", provider: "openai" as Provider },
    { decision: "deny", provider: "anthropic" as Provider },
  ])("asks canUseTool for transfer_eth ($decision) and runs it once with its key", async ({
    decision,
    provider,
  }) => {
    scripted = await startScriptedModel({ script: [transfer, { text: "done" }] });
    const fixture = await sqliteFixture();
    const tools = await LedgerTools.create({ database: fixture.file });
    const asked: string[] = [];
    const canUseTool: CanUseTool = (name, args) => {
      asked.push(`${name} ${args.amount} ${args.idempotency_key}`);
      return decision === "allow" ? { behavior: "allow" } : { behavior: "deny", reason: "the user declined" };
    };
    const agent = createAgent({
      model: modelFor(provider, scripted),
      tools: [createManifest({ LedgerTools: tools })],
      canUseTool,
      code: { typescript: ts },
    });
    try {
      await agent.chat("给 bob 转 10 ETH");
      const answer = scripted.requests[1]!.toolResults[0]!;
      if (decision === "allow") {
        expect(JSON.parse(answer.content)).toStrictEqual({
          before: "100",
          tx: expect.any(Number),
          replayed: true,
          after: "110",
        });
        expect(asked).toStrictEqual(["transfer_eth 10 seed-004-1", "transfer_eth 10 seed-004-1"]);
      } else {
        expect(JSON.parse(answer.content.split("\n\n")[0]!)).toStrictEqual({
          refused: "PermissionError",
          message: expect.stringContaining("the user declined"),
        });
        expect(answer.content).toContain("calls that failed:\nledger.transfer_eth (denied)");
        expect(asked).toStrictEqual(["transfer_eth 10 seed-004-1"]);
        expect((await tools.get_balance("bob")).balance).toBe("100");
      }
    } finally {
      await agent.close();
      await tools.ledger.close();
      await fixture.dispose();
    }
  });
});

/** Code mode over an MCP source (server-memory over stdio) in the agent. */
describe("code mode over mcpTools (server-memory over stdio)", () => {
  it("runs a program against the third-party server's tools", async () => {
    const server = path.join(
      import.meta.dirname,
      "../../../../node_modules/@modelcontextprotocol/server-memory/dist/index.js",
    );
    scripted = await startScriptedModel({
      script: [
        program(`await memory.create_entities({ entities: [{ name: "ada", entityType: "person", observations: ["first program"] }] });
const graph = await memory.read_graph();
return graph.entities.map((e) => e.name);`),
        (r) => ({ text: r.toolResults[0]!.content }),
      ],
    });
    const agent = createAgent({
      model: modelFor("anthropic", scripted),
      tools: [
        mcpTools({
          name: "memory",
          stdio: {
            command: process.execPath,
            args: [server],
            env: {
              MEMORY_FILE_PATH: path.join(tmpdir(), `mcp-gen-agent-code-${process.pid}-${Date.now()}.jsonl`),
            },
            stderr: "ignore",
          },
        }),
      ],
      canUseTool: allowAll,
      code: { typescript: ts },
    });
    try {
      const { text } = await agent.chat("remember ada");
      expect(JSON.parse(text)).toStrictEqual(["ada"]);
      expect(JSON.stringify(scripted.requests[0]!.body.tools[0])).toMatch(
        /declare (?:namespace|const) memory\b/,
      );
    } finally {
      await agent.close();
    }
  });
});

/** Over the declarations budget: the description carries the index, and describe_api answers lookups. */
describe("code mode over budget: the index and describe_api", () => {
  it("offers run_program with the index and describe_api, which answers one tool's declarations", async () => {
    scripted = await startScriptedModel({
      script: [
        { toolCalls: [{ name: "describe_api", arguments: { query: "smart_home.search_devices" } }] },
        { toolCalls: [{ name: "describe_api", arguments: { query: "smart_home.search_device_x" } }] },
        program(`const found = await smart_home.search_devices({ query: "灯" });\nreturn found.length > 0;`),
        (r) => ({ text: r.toolResults[0]!.content }),
      ],
    });
    const home = smartHome();
    const agent = createAgent({
      model: modelFor("openai", scripted),
      tools: [home.manifest],
      code: { typescript: ts, maxDeclarationChars: 100 },
    });
    try {
      const { text } = await agent.chat("any lights?");
      expect(text).toBe("true");
      expect(scripted.requests[0]!.tools).toStrictEqual(["run_program", "describe_api"]);
      const description = JSON.stringify(scripted.requests[0]!.body.tools[0]);
      expect(description).not.toMatch(/declare (?:namespace|const)/);
      expect(description).toContain("smart_home: execute_commands, interpret_command, search_devices");
      expect(description).toContain("describe_api is a tool beside this one, not a function of the program");
      const [found] = scripted.requests[1]!.toolResults;
      expect(found!.content).toContain("\nsearch_devices(args:{");
      expect(found!.content).not.toContain("execute_commands(");
      const [missing] = scripted.requests[2]!.toolResults;
      expect(missing!.isError).toBe(true);
      expect(missing!.content).toContain('did you mean "search_devices"');
    } finally {
      await agent.close();
    }
  });
});

describe("code mode: the agent's time limit bounds the program", () => {
  it("stops an endless program at timeoutMs and tells the model", async () => {
    scripted = await startScriptedModel({
      script: [program("let n = 0;\nwhile (true) { n++; }"), (r) => ({ text: r.toolResults[0]!.content })],
    });
    const agent = createAgent({
      model: modelFor("anthropic", scripted),
      tools: [smartHome().manifest],
      timeoutMs: 300,
      code: { typescript: ts },
    });
    try {
      const { text } = await agent.chat("loop");
      expect(text).toMatch(/^The program failed.*time/);
    } finally {
      await agent.close();
    }
  });
});

describe("code mode and the router", () => {
  it("refuses both at once, naming the choice", async () => {
    scripted = await startScriptedModel({ script: [] });
    const agent = createAgent({
      model: modelFor("anthropic", scripted),
      tools: [smartHome().manifest],
      router: true,
      code: { typescript: ts },
    });
    await expect(agent.tools()).rejects.toThrow(
      /router and code mode both replace the tools with one tool: choose one/,
    );
    await agent.close();
  });
});

/** finalAnswer: the model ends its turn from a program (search, switch on, reply: one round trip). */
describe.each([
  "anthropic",
  "openai",
] as Provider[])("code mode's final answer through the %s SDK", (provider) => {
  const reply = (text: string, final = true) => ({
    toolCalls: [{ name: "run_program", arguments: { program: text, final } }],
  });
  const SWITCH_ON = `const found = await smart_home.search_devices({ query: "客厅 灯", limit: 5 });
const light = found[0];
if (!light) return "没有找到客厅的灯";
const r = await smart_home.execute_commands({
  device_id: light.fullId,
  commands: [{ component: "main", capability: "switch", command: "on" }],
});
return r.status === "ACCEPTED" ? "已打开" + light.name : "没能打开灯";`;

  it("delivers the program's value as the answer: one model round trip, the conversation ends with it", async () => {
    scripted = await startScriptedModel({ script: [reply(SWITCH_ON), { text: "好的" }] });
    const home = smartHome();
    const agent = createAgent({
      model: modelFor(provider, scripted),
      tools: [home.manifest],
      canUseTool: allowAll,
      code: { typescript: ts, finalAnswer: true },
    });
    try {
      const { events, result } = await collect(agent.run("打开客厅的灯"));
      expect(result.stopReason).toBe("answered");
      expect(result.text).toMatch(/^已打开/);
      expect(result.steps).toBe(1);
      expect(scripted.requests).toHaveLength(1);
      expect(home.registry.get("uuid-abc123")?.state.switch).toBe("on");
      expect(events.at(-1)).toMatchObject({ type: "final", result: { stopReason: "answered" } });
      // the offer says how, and takes `final`
      const offered = JSON.stringify(scripted.requests[0]!.body.tools[0]);
      expect(offered).toContain('Optional \\"final\\": true');
      expect(offered).toContain('"final":{"type":"boolean"');
      // the turn's messages end with the answer as the assistant's reply: the next turn continues from it
      expect(result.messages.at(-1)).toStrictEqual({ role: "assistant", text: result.text, toolCalls: [] });
      const next = await agent.chat("谢谢", { history: result.messages });
      expect(next.text).toBe("好的");
      const second = scripted.requests[1]!;
      expect(second.toolResults).toStrictEqual([]);
      expect(JSON.stringify(second.body.messages)).toContain(result.text);
    } finally {
      await agent.close();
    }
  });

  it("never delivers a program that fails, nor one sent without final: the model gets the result", async () => {
    scripted = await startScriptedModel({
      script: [
        reply(`const found = await smart_home.search_device({ query: "灯" });\nreturn "x";`),
        reply(`return (await smart_home.search_devices({ query: "客厅 灯" })).length;`, false),
        (r) => ({ text: `found ${r.toolResults[0]!.content}` }),
      ],
    });
    const agent = createAgent({
      model: modelFor(provider, scripted),
      tools: [smartHome().manifest],
      code: { typescript: ts, finalAnswer: true },
    });
    try {
      const result = await agent.chat("how many lights?");
      expect(result.stopReason).toBe("end_turn");
      expect(result.steps).toBe(3);
      expect(scripted.requests[1]!.toolResults[0]!.content).toMatch(/did not type-check/);
      expect(result.text).toMatch(/^found \d+$/);
    } finally {
      await agent.close();
    }
  });

  it("offers no final parameter unless finalAnswer is set", async () => {
    scripted = await startScriptedModel({ script: [{ text: "hi" }] });
    const agent = createAgent({
      model: modelFor(provider, scripted),
      tools: [smartHome().manifest],
      code: { typescript: ts },
    });
    try {
      await agent.chat("hi");
      expect(JSON.stringify(scripted.requests[0]!.body.tools[0])).not.toContain("final");
    } finally {
      await agent.close();
    }
  });
});
