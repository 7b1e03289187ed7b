import { type RunningServer, serve } from "@mcp-gen/runtime/server";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import ts from "typescript-5";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sqliteFixture } from "../../../../examples/ledger/test/support/backends.ts";
import { LedgerTools } from "../../../../examples/ledger/tools.ts";
import { manifest as conformance } from "../../../../generated/conformance/server.ts";
import { createManifest } from "../../../../generated/ledger/server.ts";

/**
 * `serve(manifest, { code })` — the runtime's form of `mcp-gen serve --code|--code-only|
 * --code-allow-destructive` — over real Streamable HTTP on 127.0.0.1 with the SDK v2 client, in
 * both protocol eras; and tools that use their context inside a program: the client that sent the
 * program answers their questions and receives their progress and logs.
 */
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

type Era = "legacy" | "2026-07-28";

async function start(
  manifest: Parameters<typeof serve>[0],
  code: object,
  listChanged = false,
): Promise<RunningServer> {
  const running = await serve(manifest, {
    transport: "http",
    http: { port: 0 },
    onError: () => {},
    listChanged,
    code: { typescript: ts, ...code },
  });
  open.push(running);
  return running;
}

async function connect(
  url: string,
  era: Era,
  capabilities: ConstructorParameters<typeof Client>[1] extends infer O
    ? O extends { capabilities?: infer C }
      ? C
      : never
    : never = {},
): Promise<Client> {
  const client = new Client(
    { name: "serve-code-option", version: "1.0.0" },
    { versionNegotiation: { mode: era === "legacy" ? "legacy" : { pin: era } }, capabilities },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  open.push(client);
  return client;
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

const TRANSFER = `try {
  const r = await ledger.transfer_eth({ to_address: "bob", amount: "5", sender: "alice", idempotency_key: "opt-1" });
  return { sent: r.amount };
} catch (e) {
  return { refused: (e as Error).name };
}`;

describe.each(["legacy", "2026-07-28"] as Era[])("serve() with the code option over HTTP (%s)", (era) => {
  let fixture: Awaited<ReturnType<typeof sqliteFixture>>;
  let tools: LedgerTools;
  beforeEach(async () => {
    fixture = await sqliteFixture();
    tools = await LedgerTools.create({ database: fixture.file });
    open.push({ close: () => fixture.dispose() }, { close: () => tools.ledger.close() });
  });

  it("only: serves run_program alone, and refuses a destructive call the client cannot be asked about", async () => {
    const running = await start(createManifest({ LedgerTools: tools }), { only: true });
    const client = await connect(running.url!, era);
    const { tools: listed } = await client.listTools();
    expect(listed.map((t) => t.name)).toStrictEqual(["run_program"]);
    expect(listed[0]!.description).toContain("declare namespace ledger {");
    const balance = await client.callTool({
      name: "run_program",
      arguments: { program: `return (await ledger.get_balance({ address: "alice" })).balance;` },
    });
    expect(textOf(balance)).toBe('"100"');
    const refused = await client.callTool({ name: "run_program", arguments: { program: TRANSFER } });
    expect(JSON.parse(textOf(refused).split("\n\n")[0]!)).toStrictEqual({ refused: "PermissionError" });
    expect((await tools.get_balance("bob")).balance).toBe("100");
  });

  it("allowDestructive: serves run_program beside the tools, and runs the destructive call", async () => {
    const running = await start(createManifest({ LedgerTools: tools }), { allowDestructive: true });
    const client = await connect(running.url!, era);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("run_program");
    expect(names).toContain("transfer_eth");
    const sent = await client.callTool({ name: "run_program", arguments: { program: TRANSFER } });
    expect(JSON.parse(textOf(sent))).toStrictEqual({ sent: "5" });
    expect((await tools.get_balance("bob")).balance).toBe("105");
  });
});

it("answers other requests while a program computes (the server's programs run in a worker)", async () => {
  const running = await start(conformance, {
    only: true,
    allowDestructive: true,
    limits: { timeMs: 600_000 },
  });
  const busy = await connect(running.url!, "legacy");
  const other = await connect(running.url!, "legacy");
  const stop = new AbortController();
  let outcome = "running";
  const started = new Promise<void>((resolve) => {
    void busy
      .callTool(
        {
          name: "run_program",
          arguments: { program: "await conformance.test_tool_with_progress();\nwhile (true) {}" },
        },
        { onprogress: (p) => p.progress >= 3 && resolve(), signal: stop.signal },
      )
      .then(
        () => (outcome = "ended"),
        () => (outcome = "cancelled"),
      );
  });
  await started;
  // the program only ends when cancelled: the other client's request is answered meanwhile
  expect((await other.listTools()).tools.map((t) => t.name)).toStrictEqual(["run_program"]);
  expect(outcome).toBe("running");
  stop.abort();
  await expect.poll(() => outcome).toBe("cancelled");
});

it("update() serves the next manifest with a code tool of its own (the declarations follow)", async () => {
  const fixture = await sqliteFixture();
  const tools = await LedgerTools.create({ database: fixture.file });
  open.push({ close: () => fixture.dispose() }, { close: () => tools.ledger.close() });
  const running = await start(
    createManifest({ LedgerTools: tools }),
    { only: true, allowDestructive: true },
    true,
  );
  const client = await connect(running.url!, "legacy");
  const description = async () => (await client.listTools()).tools[0]!.description ?? "";
  expect(await description()).toContain("declare namespace ledger {");
  running.update(conformance);
  await expect.poll(description).toContain("declare namespace conformance {");
  expect((await client.listTools()).tools.map((t) => t.name)).toStrictEqual(["run_program"]);
  const simple = await client.callTool({
    name: "run_program",
    arguments: { program: "return await conformance.test_simple_text();" },
  });
  expect(textOf(simple)).toContain("This is a simple text response for testing.");
});

describe.each([
  "legacy",
  "2026-07-28",
] as Era[])("tools that use their context inside a program (%s)", (era) => {
  it("asks the program's client (elicitation, sampling) and reports to it (progress, logs)", async () => {
    const running = await start(conformance, { only: true });
    const client = await connect(running.url!, era, { elicitation: { form: {} }, sampling: {} });
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", (request) => {
      asked.push(request.params.message);
      // the permission hook of destructive calls asks through the same client
      const content: Record<string, string | boolean> = request.params.message.startsWith(
        "A program wants to call",
      )
        ? { allow: true }
        : { username: "ada", email: "ada@example.com" };
      return { action: "accept" as const, content };
    });
    const prompts: string[] = [];
    client.setRequestHandler("sampling/createMessage", (request) => {
      prompts.push((request.params.messages[0]!.content as { text: string }).text);
      return { role: "assistant", model: "scripted", content: { type: "text", text: "forty-two" } };
    });
    const logs: unknown[] = [];
    client.setNotificationHandler("notifications/message", (n) => {
      logs.push({ level: n.params.level, logger: n.params.logger, data: n.params.data });
    });
    const progress: { progress: number; message?: string }[] = [];
    const result = await client.callTool(
      {
        name: "run_program",
        arguments: {
          program: `const who = await conformance.test_elicitation({ message: "Who are you?" });
const llm = await conformance.test_sampling({ prompt: "6 x 7?" });
await conformance.test_tool_with_progress();
await conformance.test_tool_with_logging();
return { who, llm };`,
        },
      },
      {
        onprogress: (p) =>
          progress.push({ progress: p.progress, ...(p.message ? { message: p.message } : {}) }),
      },
    );
    expect(JSON.parse(textOf(result))).toStrictEqual({
      who: 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
      llm: "LLM response: forty-two",
    });
    expect(asked.filter((m) => !m.startsWith("A program wants"))).toStrictEqual(["Who are you?"]);
    expect(prompts).toStrictEqual(["6 x 7?"]);
    // (a 2026-07-28 SDK client also reports its own input_required rounds as progress)
    expect(progress.filter((p) => p.message?.startsWith("test_tool"))).toStrictEqual([
      { progress: 1, message: "test_tool_with_progress: 0/100" },
      { progress: 2, message: "test_tool_with_progress: 50/100" },
      { progress: 3, message: "test_tool_with_progress: 100/100" },
    ]);
    // a 2025 client receives every log message (no level set); a 2026-07-28 request without a level, none
    expect(logs).toStrictEqual(
      era === "legacy"
        ? ["Tool execution started", "Tool processing data", "Tool execution completed"].map((data) => ({
            level: "info",
            logger: "test_tool_with_logging",
            data,
          }))
        : [],
    );
  });
});
