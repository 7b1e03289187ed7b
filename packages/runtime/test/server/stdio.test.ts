import { spawn } from "node:child_process";
import { utimesSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type BuiltProbe, buildProbe } from "./support/probe.ts";
import { transportSuite } from "./support/transport-suite.ts";

const BIN = path.join(import.meta.dirname, "../../../codegen/bin/mcp-gen.js");

let probe: BuiltProbe;
beforeAll(async () => {
  probe = await buildProbe();
});
afterAll(() => probe.dispose());

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

/** A client talking to `mcp-gen serve probe` in a child process, the way desktop clients launch servers. */
async function connect(extraArgs: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "serve", "probe", "--config", probe.configFile, ...extraArgs],
    env: { ...(process.env as Record<string, string>), PROBE_STEP: "1", MCP_GEN_NO_CACHE: "1" },
    stderr: "pipe",
  });
  const client = new Client({ name: "stdio-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

describe("mcp-gen serve over stdio", () => {
  transportSuite(() => ({ probe, connect: () => connect() }));

  it("applies --timeout and --mask-errors", async () => {
    const client = await connect(["--timeout", "1", "--mask-errors"]);
    expect(await client.callTool({ name: "wait_for_cancel", arguments: {} })).toStrictEqual({
      content: [{ type: "text", text: 'Tool "wait_for_cancel" timed out after 1 ms' }],
      isError: true,
    });
    expect(await client.callTool({ name: "crash", arguments: { message: "/etc/secret" } })).toStrictEqual({
      content: [{ type: "text", text: 'Tool "crash" failed with an internal error.' }],
      isError: true,
    });
  });
});

describe("the fast-start cache of mcp-gen serve", () => {
  /** Starts `mcp-gen serve probe`; resolves with its stderr once `until` appears in it. */
  function start(cacheDir: string, until: RegExp): Promise<{ stderr: string; stop(): void }> {
    const child = spawn(process.execPath, [BIN, "serve", "probe", "--config", probe.configFile], {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, MCP_GEN_CACHE_DIR: cacheDir, MCP_GEN_CACHE_REPORT: "1" },
    });
    return new Promise((resolve, reject) => {
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
        if (until.test(stderr)) resolve({ stderr, stop: () => child.kill() });
      });
      child.once("exit", () => reject(new Error(`exited early: ${stderr}`)));
    });
  }

  it("starts from the bundle an earlier start cached, until a source changes", async () => {
    const cacheDir = path.join(path.dirname(probe.configFile), "serve-cache");
    const first = await start(cacheDir, /fast start (cached|not cached.*)\n/);
    first.stop();
    expect(first.stderr).toContain("mcp-gen: fast start cached");

    const second = await start(cacheDir, /serving probe/);
    second.stop();
    expect(second.stderr).toMatch(
      /^mcp-gen: fast start from cache\nmcp-gen: serving probe \(\d+ tools\) on stdio/,
    );
    const client = await connectWith(["--config", probe.configFile], { MCP_GEN_CACHE_DIR: cacheDir });
    expect(
      (await client.callTool({ name: "increment", arguments: { times: 2 } })).structuredContent,
    ).toStrictEqual({
      result: 2,
    });

    const server = path.join(path.dirname(probe.configFile), "generated", "probe", "server.ts");
    const later = new Date(Date.now() + 5_000);
    utimesSync(server, later, later);
    const third = await start(cacheDir, /serving probe/);
    third.stop();
    expect(third.stderr).not.toContain("from cache");
  });
});

/** A client on `mcp-gen serve probe <args>` with extra environment. */
async function connectWith(args: string[], env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "serve", "probe", ...args],
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "stdio-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}
