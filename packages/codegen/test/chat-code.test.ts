import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type ScriptedModel, type ScriptStep, startScriptedModel } from "@mcp-gen/runtime/testing";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "./support/cli.ts";
import { REPO_ROOT } from "./support/project.ts";

let scripted: ScriptedModel | undefined;
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
});

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^(ANTHROPIC|OPENAI)_/.test(key)) delete env[key];
  return { ...env, ...extra };
}

/** Seed 000 as one program: search, then switch on what was found. */
const PROGRAM = `const found = await smart_home.search_devices({ query: "客厅 灯", limit: 5 });
const light = found[0];
if (!light) return "none";
const r = await smart_home.execute_commands({ device_id: light.fullId, commands: [{ component: "main", capability: "switch", command: "on" }] });
return r.status;`;

const SCRIPT: ScriptStep[] = [
  { toolCalls: [{ name: "run_program", arguments: { program: PROGRAM } }] },
  (r) => ({
    text: r.toolResults[0]!.content.startsWith('"ACCEPTED"')
      ? "已成功打开客厅吸顶灯"
      : r.toolResults[0]!.content,
  }),
];

describe("mcp-gen chat --code", () => {
  it.each([
    { yes: true, answer: "已成功打开客厅吸顶灯" },
    { yes: false, answer: "PermissionError" },
  ])("offers run_program only and runs seed 000 in one program (--yes: $yes)", async ({ yes, answer }) => {
    scripted = await startScriptedModel({ script: SCRIPT });
    const { code, stdout, stderr } = await runCli(
      ["chat", "smart-home", "打开客厅的灯", "--code", ...(yes ? ["--yes"] : [])],
      REPO_ROOT,
      cleanEnv(scripted.env()),
    );
    expect(code, stderr).toBe(0);
    expect(stdout).toContain(answer);
    expect(scripted.requests[0]!.tools).toStrictEqual(["run_program"]);
    if (!yes) expect(stdout).toContain("not confirmed: the user runs mcp-gen chat without --yes");
  });

  it("--code-final: the program's value is the answer, after one model request", async () => {
    scripted = await startScriptedModel({
      script: [
        {
          toolCalls: [
            {
              name: "run_program",
              arguments: {
                program: PROGRAM.replace(
                  "return r.status;",
                  'return r.status === "ACCEPTED" ? "客厅的灯已打开" : r.status;',
                ),
                final: true,
              },
            },
          ],
        },
      ],
    });
    const { code, stdout, stderr } = await runCli(
      ["chat", "smart-home", "打开客厅的灯", "--code-final", "--yes"],
      REPO_ROOT,
      cleanEnv(scripted.env()),
    );
    expect(code, stderr).toBe(0);
    expect(stdout).toContain("客厅的灯已打开");
    expect(scripted.requests).toHaveLength(1);
    expect(JSON.stringify(scripted.requests[0]!.body.tools)).toContain("final");
  });
});

/** Seed 004 as one program: the transfer with its idempotency key, retried once; it moves once. */
const TRANSFER = `const key = "seed-004-chat";
const first = await ledger.transfer_eth({ to_address: "bob", amount: "10", sender: "alice", idempotency_key: key });
const retry = await ledger.transfer_eth({ to_address: "bob", amount: "10", sender: "alice", idempotency_key: key });
const bob = await ledger.get_balance({ address: "bob" });
return { same: first.tx_id === retry.tx_id, replayed: retry.replayed, bob: bob.balance };`;

describe("mcp-gen chat ledger --code (seed 004)", () => {
  it("transfers once with its idempotency key, the retry replayed", async () => {
    scripted = await startScriptedModel({
      script: [
        { toolCalls: [{ name: "run_program", arguments: { program: TRANSFER } }] },
        (r) => ({ text: r.toolResults[0]!.content }),
      ],
    });
    const dir = mkdtempSync(path.join(tmpdir(), "mcp-gen-chat-code-"));
    const { code, stdout, stderr } = await runCli(
      ["chat", "ledger", "给 bob 转 10 ETH", "--code", "--yes"],
      REPO_ROOT,
      cleanEnv({ ...scripted.env(), LEDGER_DB: path.join(dir, "ledger.sqlite") }),
    );
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toStrictEqual({ same: true, replayed: true, bob: "110" });
    expect(stderr).toContain("ledger.transfer_eth");
  });
});
