import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "./support/cli.ts";
import { REPO_ROOT } from "./support/project.ts";

/**
 * The official MCP Inspector's CLI (devDependency @modelcontextprotocol/inspector, which needs
 * Node >= 22.19: run with the Node 22 that scripts/test.sh installs into node_modules/.cache)
 * lists and calls the tools of `mcp-gen serve conformance`, over stdio and over Streamable HTTP,
 * in both protocol eras: `--protocol-era legacy` (2025-11-25, initialize) and `modern`
 * (2026-07-28, server/discover).
 */
const NODE22 = path.join(REPO_ROOT, "node_modules/.cache/node22/node_modules/.bin/node");
const INSPECTOR = path.join(
  REPO_ROOT,
  "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
);
const missing = existsSync(NODE22)
  ? undefined
  : `skipped: no Node 22 at ${NODE22} (scripts/test.sh installs it)`;
if (missing) console.warn(`inspector.test.ts ${missing}`);

const contract = JSON.parse(readFileSync(path.join(REPO_ROOT, "schemas/conformance.tools.json"), "utf8"));
const TOOL_NAMES: string[] = contract.tools.map((t: { name: string }) => t.name).sort();

// The Inspector keeps a catalog and OAuth state under $HOME: give it a throwaway one.
const home = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-inspector-"));
let server: ChildProcess | undefined;
let url = "";

beforeAll(async () => {
  if (missing) return;
  server = spawn(process.execPath, [BIN, "serve", "conformance", "--http", "--port", "0"], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  url = await new Promise<string>((resolve, reject) => {
    let err = "";
    server!.stderr!.on("data", (chunk: Buffer) => {
      err += chunk;
      const match = /serving conformance \(\d+ tools\) on (\S+)/.exec(err);
      if (match) resolve(match[1]!);
    });
    server!.once("exit", () => reject(new Error(`mcp-gen serve exited: ${err}`)));
  });
});
afterAll(() => {
  server?.kill();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `mcp-inspector --cli --format json -q` on Node 22 against the target, in one era. */
function inspect(transport: "stdio" | "http", era: "legacy" | "modern", args: string[]): Promise<Run> {
  const target =
    transport === "stdio"
      ? ["--cwd", REPO_ROOT, process.execPath, BIN, "serve", "conformance"]
      : ["--transport", "http", "--server-url", url];
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(VITEST|__VITEST|NODE_OPTIONS$)/.test(k)),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(
      NODE22,
      [INSPECTOR, "--cli", "--protocol-era", era, "--format", "json", "-q", ...target, ...args],
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

/** The `result` of a successful run. */
function resultOf(run: Run): Record<string, any> {
  expect(run, run.stderr).toMatchObject({ code: 0 });
  return JSON.parse(run.stdout).result;
}

const title = `MCP Inspector CLI 2.12 against mcp-gen serve${missing ? ` (${missing})` : ""}`;

describe.skipIf(missing !== undefined)(title, () => {
  describe.each(["stdio", "http"] as const)("over %s", (transport) => {
    describe.each(["legacy", "modern"] as const)("--protocol-era %s", (era) => {
      it("lists the tools (a string result's schema wrapped as { result } for 2025 clients only)", async () => {
        const listed = resultOf(await inspect(transport, era, ["--method", "tools/list"]));
        expect(listed.tools.map((t: { name: string }) => t.name).sort()).toStrictEqual(TOOL_NAMES);
        const sampling = listed.tools.find((t: { name: string }) => t.name === "test_sampling");
        expect(sampling.outputSchema).toStrictEqual(
          era === "legacy"
            ? {
                type: "object",
                properties: { result: { type: "string" } },
                required: ["result"],
                additionalProperties: false,
              }
            : { type: "string" },
        );
      });

      it("calls a tool with nested arguments, and reports a tool's error", async () => {
        const called = resultOf(
          await inspect(transport, era, [
            "--method",
            "tools/call",
            "--tool-name",
            "json_schema_2020_12_tool",
            "--tool-args-json",
            JSON.stringify({ name: "Ada", address: { city: "Paris" }, email: "ada@example.com" }),
          ]),
        );
        expect(called.content).toStrictEqual([
          { type: "text", text: 'name=Ada, address={"city":"Paris"}, reach=ada@example.com' },
        ]);
        expect(called.isError).toBeUndefined();

        const failed = await inspect(transport, era, [
          "--method",
          "tools/call",
          "--tool-name",
          "test_error_handling",
        ]);
        expect(failed.code).toBe(5); // the Inspector's exit code for an isError result
        expect(JSON.parse(failed.stdout).result).toMatchObject({
          content: [{ type: "text", text: "This tool intentionally returns an error for testing" }],
          isError: true,
        });
      });
    });
  });
});
