import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { connectStdio, type StdioConnection } from "@mcp-gen/runtime/client";
import { afterEach, describe, expect, it } from "vitest";
import { BIN } from "./support/cli.ts";
import { REPO_ROOT } from "./support/project.ts";

/**
 * `mcp-gen serve ledger --code-only --mcp memory=… --mcp everything=…` as a real stdio child, driven by the
 * SDK v2 client in both protocol eras: one program calls the ledger (in process) and the
 * third-party server-memory and server-everything (stdio children of the server) through the code tool.
 */
const MEMORY = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");
const EVERYTHING = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
let open: StdioConnection | undefined;
const memoryFile = () =>
  path.join(mkdtempSync(path.join(tmpdir(), "mcp-gen-serve-code-memory-")), "memory.jsonl");
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function start(options: {
  era: "legacy" | "2026-07-28";
  flags: string[];
  elicit?: boolean;
  server?: string;
  answer?: Record<string, string | boolean>;
}) {
  const dir = mkdtempSync(path.join(tmpdir(), "mcp-gen-serve-code-"));
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|__VITEST)/.test(k))),
    LEDGER_DB: path.join(dir, "ledger.sqlite"),
    MEMORY_FILE_PATH: path.join(dir, "memory.jsonl"),
    NO_COLOR: "1",
  } as Record<string, string>;
  const asked: string[] = [];
  open = await connectStdio(
    {
      command: process.execPath,
      args: [BIN, "serve", options.server ?? "ledger", ...options.flags],
      cwd: REPO_ROOT,
      env,
      stderr: "pipe",
    },
    {
      protocol: options.era,
      clientOptions: { capabilities: options.elicit ? { elicitation: { form: {} } } : {} },
    },
  );
  if (options.elicit)
    open.client.setRequestHandler("elicitation/create", (request) => {
      asked.push(request.params.message);
      const permission = request.params.message.startsWith("A program wants to call");
      return { action: "accept", content: permission ? { allow: true } : (options.answer ?? {}) };
    });
  return { client: open.client, asked };
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

describe.each(["legacy", "2026-07-28"] as const)("mcp-gen serve --code-only (%s)", (era) => {
  it("serves run_program alone, declaring the ledger and the --mcp servers (server-memory, server-everything), and runs one program over all three", async () => {
    const { client, asked } = await start({
      era,
      // the SDK starts a stdio server with a minimal environment: its memory file goes on the command line
      flags: [
        "--code-only",
        "--mcp",
        `memory=env MEMORY_FILE_PATH=${memoryFile()} ${process.execPath} ${MEMORY}`,
        "--mcp",
        `everything=${process.execPath} ${EVERYTHING} stdio`,
      ],
      elicit: true,
    });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toStrictEqual(["run_program"]);
    expect(tools[0]!.description).toContain("declare namespace ledger {");
    expect(tools[0]!.description).toMatch(/declare (?:namespace|const) memory\b/);
    expect(tools[0]!.description).toMatch(/declare (?:namespace|const) everything\b/);
    const result = await client.callTool({
      name: "run_program",
      arguments: {
        program: `await ledger.faucet({ address: "erin", amount: "1" });
const { accounts } = await ledger.list_accounts();
await memory.create_entities({ entities: accounts.map((a) => ({ name: a.address, entityType: "account", observations: ["balance " + a.balance] })) });
const graph = await memory.read_graph();
const data = typeof graph === "string" ? JSON.parse(graph) : graph;
const sum = await everything.get_sum({ a: accounts.length, b: 1 });
return { names: data.entities.map((e: { name: string }) => e.name).sort(), sum };`,
      },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const value = JSON.parse(textOf(result));
    expect(value.names).toStrictEqual(["alice", "bob", "carol", "dave", "erin"]);
    expect(String(value.sum)).toContain("6");
    // the faucet (destructive) asked the user through elicitation; server-memory's tools say they are not
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^A program wants to call ledger\.faucet, which is destructive/);
  });

  it("refuses a destructive call for a client without elicitation, unless --code-allow-destructive", async () => {
    const program = `try { await ledger.faucet({ address: "erin", amount: "1" }); return "ran"; } catch (e) { return (e as Error).name; }`;
    const refused = await start({ era, flags: ["--code"] });
    expect((await refused.client.listTools()).tools.map((t) => t.name)).toContain("transfer_eth");
    const answer = await refused.client.callTool({ name: "run_program", arguments: { program } });
    expect(JSON.parse(textOf(answer).split("\n\n")[0]!)).toBe("PermissionError");
    await open?.close();
    const allowed = await start({ era, flags: ["--code", "--code-allow-destructive"] });
    const ran = await allowed.client.callTool({ name: "run_program", arguments: { program } });
    expect(JSON.parse(textOf(ran))).toBe("ran");
  });

  it("a tool that elicits inside a program asks the client that sent it (serve conformance --code-only)", async () => {
    const { client, asked } = await start({
      era,
      server: "conformance",
      flags: ["--code-only"],
      elicit: true,
      answer: { username: "ada", email: "ada@example.com" },
    });
    const result = await client.callTool({
      name: "run_program",
      arguments: { program: `return await conformance.test_elicitation({ message: "Who are you?" });` },
    });
    expect(JSON.parse(textOf(result))).toBe(
      'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
    );
    expect(asked.filter((m) => !m.startsWith("A program wants to call"))).toStrictEqual(["Who are you?"]);
  });
});
