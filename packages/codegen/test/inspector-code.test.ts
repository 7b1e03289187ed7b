import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BIN } from "./support/cli.ts";
import { REPO_ROOT } from "./support/project.ts";

/**
 * The MCP Inspector's CLI (Node 22, as in inspector.test.ts) against `mcp-gen serve ledger
 * --code-only` over stdio, both protocol eras: it lists run_program and calls it with a program;
 * the Inspector's CLI cannot answer elicitation, so a destructive call inside is refused.
 */
const NODE22 = path.join(REPO_ROOT, "node_modules/.cache/node22/node_modules/.bin/node");
const INSPECTOR = path.join(
  REPO_ROOT,
  "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
);
const missing = existsSync(NODE22) ? undefined : `skipped: no Node 22 at ${NODE22} (source .ci/node22.sh)`;
if (missing) console.warn(`inspector-code.test.ts ${missing}`);

const home = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-inspector-code-"));

function inspect(
  era: "legacy" | "modern",
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(VITEST|__VITEST|NODE_OPTIONS$)/.test(k)),
  );
  const target = ["-e", `LEDGER_DB=${path.join(home, `ledger-${era}.sqlite`)}`, "--cwd", REPO_ROOT];
  const server = [process.execPath, BIN, "serve", "ledger", "--code-only"];
  return new Promise((resolve, reject) => {
    const child = spawn(
      NODE22,
      [INSPECTOR, "--cli", "--protocol-era", era, "--format", "json", "-q", ...target, ...server, ...args],
      { cwd: home, env: { ...env, HOME: home, NO_COLOR: "1" } },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const call = (program: string) => [
  "--method",
  "tools/call",
  "--tool-name",
  "run_program",
  "--tool-args-json",
  JSON.stringify({ program }),
];

describe.skipIf(missing !== undefined)(
  `MCP Inspector CLI against mcp-gen serve --code-only${missing ?? ""}`,
  () => {
    describe.each(["legacy", "modern"] as const)("--protocol-era %s", (era) => {
      it("lists run_program and runs a program; a destructive call inside is refused (no elicitation)", async () => {
        const listed = await inspect(era, ["--method", "tools/list"]);
        expect(listed.code, listed.stderr).toBe(0);
        const tools = JSON.parse(listed.stdout).result.tools;
        expect(tools.map((t: { name: string }) => t.name)).toStrictEqual(["run_program"]);
        expect(tools[0].description).toContain("\ntransfer_eth(args:{");

        const ran = await inspect(
          era,
          call(`const { accounts } = await ledger.list_accounts();
let refused = "";
try { await ledger.faucet({ address: "erin" }); } catch (e) { refused = (e as Error).name; }
return { accounts: accounts.length, refused };`),
        );
        expect(ran.code, ran.stderr).toBe(0);
        const result = JSON.parse(ran.stdout).result;
        expect(JSON.parse(result.content[0].text.split("\n\n")[0])).toStrictEqual({
          accounts: 4,
          refused: "PermissionError",
        });
      });
    });
  },
);
