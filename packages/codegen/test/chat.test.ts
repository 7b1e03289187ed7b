import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type ScriptedModel, type ScriptStep, startScriptedModel } from "@mcp-gen/runtime/testing";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "./support/cli.ts";
import { REPO_ROOT } from "./support/project.ts";

const MEMORY_SERVER = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");

let scripted: ScriptedModel | undefined;
const cleanup: (() => void)[] = [];
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
  for (const c of cleanup.splice(0)) c();
});

/** The environment without any provider key or base URL of the machine running the tests. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^(ANTHROPIC|OPENAI)_/.test(key)) delete env[key];
  return { ...env, ...extra };
}

const firstResult = (r: { toolResults: { content: string }[] }) => JSON.parse(r.toolResults[0]!.content);

const SEED_000: ScriptStep[] = [
  { toolCalls: [{ name: "search_devices", arguments: { query: "客厅 灯", limit: 5 } }] },
  (r) => ({
    toolCalls: [
      {
        name: "execute_commands",
        arguments: {
          device_id: firstResult(r).result[0].fullId,
          commands: [{ component: "main", capability: "switch", command: "on" }],
        },
      },
    ],
  }),
  (r) =>
    r.toolResults[0]!.isError ? { text: "没有得到允许，灯没有打开" } : { text: "已成功打开客厅吸顶灯" },
];

/** stderr with durations replaced, so traces compare exactly. */
const trace = (stderr: string) =>
  stderr
    .replace(/\(\d+ ms\)/g, "(… ms)")
    .trimEnd()
    .split("\n");

describe("mcp-gen chat", () => {
  it('runs seed 000: "打开客厅的灯" → search_devices → execute_commands → the answer, with a trace', async () => {
    scripted = await startScriptedModel({ script: SEED_000 });
    const { code, stdout, stderr } = await runCli(
      ["chat", "smart-home", "打开客厅的灯", "--yes"],
      REPO_ROOT,
      cleanEnv(scripted.env()),
    );
    expect({ code, stdout }).toStrictEqual({ code: 0, stdout: "已成功打开客厅吸顶灯\n" });
    expect(trace(stderr)).toStrictEqual([
      "mcp-gen chat: anthropic claude-sonnet-5-5, 3 tools",
      '→ search_devices {"query":"客厅 灯","limit":5}',
      '← search_devices (… ms) {"result":[{"id":"abc123","fullId":"uuid-abc123","name":"客厅吸顶灯","room":"客厅","type":"switch","capabilities":["switch","switchLevel"]}]}',
      '→ execute_commands {"device_id":"uuid-abc123","commands":[{"component":"main","capability":"switch","command":"on"}]}',
      "? execute_commands needs permission",
      "  allowed",
      '← execute_commands (… ms) {"status":"ACCEPTED","state":{"switch":"on","level":100}}',
    ]);
    expect(scripted.requests.map((r) => r.api)).toStrictEqual(["anthropic", "anthropic", "anthropic"]);
  });

  it("refuses destructive tools without --yes when there is no terminal to ask on (OpenAI, contract path)", async () => {
    scripted = await startScriptedModel({ script: SEED_000 });
    const { code, stdout, stderr } = await runCli(
      [
        "chat",
        "schemas/smart-home.tools.json",
        "打开客厅的灯",
        "--provider",
        "openai",
        "--model",
        "gpt-test",
      ],
      REPO_ROOT,
      cleanEnv(scripted.env()),
    );
    expect({ code, stdout }).toStrictEqual({ code: 0, stdout: "没有得到允许，灯没有打开\n" });
    expect(trace(stderr)).toContain(
      "  denied: not confirmed: the user runs mcp-gen chat without --yes and no terminal to ask on",
    );
    expect(scripted.requests.map((r) => [r.api, r.model])).toStrictEqual(
      Array(3).fill(["openai", "gpt-test"]),
    );
  });

  it("adds MCP servers with --mcp, namespacing every tool", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcp-gen-chat-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    scripted = await startScriptedModel({
      script: [
        { toolCalls: [{ name: "memory__read_graph", arguments: {} }] },
        (r) => ({ text: `graph: ${r.toolResults[0]!.content.replace(/\s+/g, "")}` }),
      ],
    });
    const { code, stdout, stderr } = await runCli(
      ["chat", "smart-home", "你记得什么?", "--mcp", `memory=${process.execPath} ${MEMORY_SERVER}`],
      REPO_ROOT,
      cleanEnv({ ...scripted.env(), MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") }),
    );
    expect({ code, stdout }).toStrictEqual({ code: 0, stdout: 'graph: {"entities":[],"relations":[]}\n' });
    expect(trace(stderr)).toContain("mcp-gen chat: anthropic claude-sonnet-5-5, 12 tools");
    // The memory server from npm is on the SDK v1: "auto" falls back to the 2025 protocol.
    expect(trace(stderr)).toContain("mcp-gen chat: memory speaks MCP 2025-11-25");
    expect(scripted.requests[0]!.tools).toContain("smart-home__search_devices");
    expect(scripted.requests[0]!.tools).toContain("memory__read_graph");
  });

  it("says exactly what to set when there is no API key", async () => {
    const { code, stdout, stderr } = await runCli(["chat", "smart-home", "hi"], REPO_ROOT, cleanEnv());
    expect({ code, stdout }).toStrictEqual({ code: 1, stdout: "" });
    expect(stderr).toBe(
      [
        "error MCPG080: no API key for a model provider",
        "  fix: set ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for a compatible endpoint) or OPENAI_API_KEY (and OPENAI_BASE_URL); --provider chooses when both are set",
        "",
        "mcp-gen: 1 error",
        "",
      ].join("\n"),
    );
    const openai = await runCli(["chat", "smart-home", "hi", "--provider", "openai"], REPO_ROOT, cleanEnv());
    expect(openai.stderr.split("\n").slice(0, 2)).toStrictEqual([
      "error MCPG080: no API key for openai",
      "  fix: set OPENAI_API_KEY (and OPENAI_BASE_URL for an OpenAI-compatible endpoint)",
    ]);
  });

  it("reports a malformed --mcp and a server without a manifest", async () => {
    const env = cleanEnv({ ANTHROPIC_API_KEY: "unused" });
    const mcp = await runCli(["chat", "smart-home", "hi", "--mcp", "no-equals-sign"], REPO_ROOT, env);
    expect(mcp.code).toBe(1);
    expect(mcp.stderr.split("\n")[0]).toBe(
      'error MCPG081: --mcp "no-equals-sign" is not name=<command or url>',
    );
    const unknown = await runCli(["chat", "weather", "hi"], REPO_ROOT, env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.split("\n").slice(0, 3)).toStrictEqual([
      'error MCPG082: "weather" has no generated server manifest to run in-process',
      "  at generated/weather/server.ts",
      "  fix: name a server of the config (conformance, economics, ledger, smart-home, structured-output), or reach the server with --mcp weather=<command or url>",
    ]);
  });
});

const EVERYTHING = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const FEATURES = "demo://resource/static/document/features.md";

/** The message and fix lines of the diagnostic on stderr (after the lines the chat printed before it). */
const diagnosticLines = (stderr: string) => {
  const lines = stderr.split("\n");
  const at = lines.findIndex((l) => l.startsWith("error "));
  return lines.slice(at, at + 2);
};

describe("mcp-gen chat --resource / --prompt", () => {
  const everything = `everything=${process.execPath} ${EVERYTHING} stdio`;

  it("reads resources and a prompt into the first turn, before the message", async () => {
    scripted = await startScriptedModel({ script: [{ text: "summarized" }] });
    const { code, stdout, stderr } = await runCli(
      [
        "chat",
        "smart-home",
        "Summarize.",
        "--mcp",
        everything,
        "--resource",
        FEATURES,
        "--prompt",
        "everything__args-prompt",
        "--prompt-arg",
        "city=Paris",
        "--prompt-arg",
        "state=Texas",
      ],
      REPO_ROOT,
      cleanEnv(scripted.env()),
    );
    expect({ code, stdout }).toStrictEqual({ code: 0, stdout: "summarized\n" });
    expect(trace(stderr)).toContain(`mcp-gen chat: resource ${FEATURES} (text/markdown)`);
    expect(trace(stderr)).toContain("mcp-gen chat: prompt everything__args-prompt (1 message)");
    const features = readFileSync(
      path.join(REPO_ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/docs/features.md"),
      "utf8",
    );
    // One user turn of the Messages API: the resource, the prompt's message, the message.
    expect(scripted.requests[0]!.body.messages).toStrictEqual([
      {
        role: "user",
        content: [
          {
            type: "text",
            text: `<resource uri="${FEATURES}" mimeType="text/markdown">\n${features}\n</resource>`,
          },
          { type: "text", text: "What's weather in Paris, Texas?" },
          { type: "text", text: "Summarize." },
        ],
      },
    ]);
  });

  it("starts from a prompt without a message (OpenAI)", async () => {
    scripted = await startScriptedModel({ script: [{ text: "simple" }] });
    const { code, stdout } = await runCli(
      [
        "chat",
        "smart-home",
        "--mcp",
        everything,
        "--prompt",
        "everything__simple-prompt",
        "--provider",
        "openai",
      ],
      REPO_ROOT,
      cleanEnv(scripted.env()),
    );
    expect({ code, stdout }).toStrictEqual({ code: 0, stdout: "simple\n" });
    expect(scripted.requests[0]!.body.messages).toStrictEqual([
      { role: "user", content: "This is a simple prompt without arguments." },
    ]);
  });

  it("stops with MCPG084 naming what exists for an unknown URI or prompt, sending nothing", async () => {
    scripted = await startScriptedModel({ script: [{ text: "never" }] });
    const env = cleanEnv(scripted.env());
    const resource = await runCli(
      ["chat", "smart-home", "hi", "--mcp", everything, "--resource", "demo://nothing"],
      REPO_ROOT,
      env,
    );
    expect({ code: resource.code, stdout: resource.stdout }).toStrictEqual({ code: 1, stdout: "" });
    const [first, fix] = resource.stderr
      .split("\n")
      .filter((l) => l.startsWith("error") || l.startsWith("  fix"));
    expect(first).toMatch(
      /^error MCPG084: unknown resource "demo:\/\/nothing": no source lists it or a template matching it\. Resources: .*demo:\/\/resource\/static\/document\/features\.md \(everything\).*Templates: .*demo:\/\/resource\/dynamic\/text\/\{resourceId\} \(everything\)/,
    );
    expect(fix).toBe("  fix: use a URI a server lists, or one matching a template (the error lists them)");

    const prompt = await runCli(
      ["chat", "smart-home", "hi", "--mcp", everything, "--prompt", "args-prompt"],
      REPO_ROOT,
      env,
    );
    expect(prompt.code).toBe(1);
    expect(diagnosticLines(prompt.stderr)[0]).toMatch(
      /^error MCPG084: unknown prompt "args-prompt"\. Prompts: .*everything__simple-prompt, everything__args-prompt/,
    );
    const missing = await runCli(
      ["chat", "smart-home", "--mcp", everything, "--prompt", "everything__args-prompt"],
      REPO_ROOT,
      env,
    );
    expect(missing.code).toBe(1);
    expect(diagnosticLines(missing.stderr)).toStrictEqual([
      'error MCPG084: prompt "everything__args-prompt" takes city (required), state: missing city',
      "  fix: pass each required argument as --prompt-arg name=value, and only those the prompt declares",
    ]);
    expect(scripted.requests).toStrictEqual([]);
  });

  it("reports a chat without message or prompt, and a malformed --prompt-arg (MCPG083)", async () => {
    const env = cleanEnv({ ANTHROPIC_API_KEY: "unused" });
    const none = await runCli(["chat", "smart-home"], REPO_ROOT, env);
    expect({ code: none.code, stdout: none.stdout }).toStrictEqual({ code: 1, stdout: "" });
    expect(none.stderr.split("\n").slice(0, 2)).toStrictEqual([
      "error MCPG083: mcp-gen chat needs a message, or --prompt <name> to start from a prompt",
      "  fix: give a message, or start from a prompt with --prompt <name>; prompt arguments are --prompt-arg name=value",
    ]);
    const bad = await runCli(["chat", "smart-home", "--prompt", "p", "--prompt-arg", "city"], REPO_ROOT, env);
    expect(bad.code).toBe(1);
    expect(bad.stderr.split("\n")[0]).toBe('error MCPG083: --prompt-arg "city" is not name=value');
    const orphan = await runCli(["chat", "smart-home", "hi", "--prompt-arg", "a=b"], REPO_ROOT, env);
    expect(orphan.stderr.split("\n")[0]).toBe('error MCPG083: --prompt-arg "a=b" needs --prompt <name>');
  });
});
