import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, renameSync, statSync, utimesSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type BuiltProbe, buildProbe, FIXTURES } from "./support/probe.ts";
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

  // Eight starts, five of them through the TypeScript loader: slow on a busy machine.
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

    // Any input of the bundle, changed, means a start through the config (which caches anew).
    const generated = path.join(path.dirname(probe.configFile), "generated", "probe");
    const touched = [
      path.join(generated, "server.ts"),
      path.join(generated, "validators.js"),
      probe.configFile,
      path.join(FIXTURES, "probe", "tools.ts"),
      path.join(generated, "tools.ts"),
      // An installed package compiled into the bundle.
      path.join(BIN, "../../../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js"),
    ];
    for (const file of touched) {
      // A few seconds ahead, left so: each start caches the state it saw, which the next touch breaks.
      // Whole seconds, so that a copy can be given exactly the same time below.
      const later = Math.ceil(Date.now() / 1000) + 5;
      utimesSync(file, later, later);
      const fresh = await start(cacheDir, /fast start (cached|not cached.*)\n/);
      fresh.stop();
      expect([file, fresh.stderr]).toStrictEqual([file, expect.not.stringContaining("from cache")]);
      expect(fresh.stderr).toContain("mcp-gen: fast start cached");
    }

    // Replaced by another file of the same size and modification time (`cp -p`, some installers).
    const tools = path.join(generated, "tools.ts");
    const { mtimeMs } = statSync(tools);
    copyFileSync(tools, `${tools}.new`);
    utimesSync(`${tools}.new`, mtimeMs / 1000, mtimeMs / 1000);
    renameSync(`${tools}.new`, tools);
    const replaced = await start(cacheDir, /fast start (cached|not cached.*)\n|from cache\nmcp-gen: serving/);
    replaced.stop();
    expect(replaced.stderr).not.toContain("from cache");

    // A cache folder other users can write to is neither used nor written.
    chmodSync(cacheDir, 0o777);
    const shared = await start(cacheDir, /fast start (cached|not cached.*)\n/);
    shared.stop();
    expect(shared.stderr).not.toContain("from cache");
    expect(shared.stderr).toMatch(/fast start not cached: .* is not only this user's\n/);
  }, 180_000);
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
