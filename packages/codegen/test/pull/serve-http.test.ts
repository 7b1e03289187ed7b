import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type Connection, connectHttp } from "@mcp-gen/runtime/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, runCli } from "../support/cli.ts";
import { REPO_ROOT, tempProject } from "../support/project.ts";

/**
 * The loop closed: the project's own `mcp-gen serve smart-home --http` (bearer token from
 * MCP_GEN_TOKEN) is pulled over Streamable HTTP into another project, whose build emits a typed
 * client that calls the served tools. The pulled contract carries the same tools as the committed one,
 * pulled in MCP 2026-07-28 (the default, which mcp-gen serves) or in the 2025 protocol.
 */
const TOKEN = "pull-serve-token";
let server: ChildProcess;
let url: string;
let dir: string;
let pulled: Awaited<ReturnType<typeof runCli>>;
let legacyDir: string;
let pulledLegacy: Awaited<ReturnType<typeof runCli>>;
let built: Awaited<ReturnType<typeof runCli>>;

beforeAll(async () => {
  server = spawn(process.execPath, [BIN, "serve", "smart-home", "--http", "--port", "0"], {
    cwd: REPO_ROOT,
    env: { ...process.env, MCP_GEN_TOKEN: TOKEN, NO_COLOR: "1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  url = await new Promise<string>((resolve, reject) => {
    let err = "";
    server.stderr!.on("data", (chunk: Buffer) => {
      err += chunk;
      const match = /serving smart-home \(\d+ tools\) on (\S+)/.exec(err);
      if (match) resolve(match[1]!);
    });
    server.once("exit", () => reject(new Error(`mcp-gen serve exited: ${err}`)));
  });
  dir = tempProject({
    "mcp-gen.config.json": '{ "servers": {} }\n',
    "package.json": '{ "type": "module", "private": true }\n',
  });
  pulled = await runCli(["pull", "home", "--url", url, "--header", `Authorization: Bearer ${TOKEN}`], dir);
  legacyDir = tempProject({ "mcp-gen.config.json": '{ "servers": {} }\n' });
  pulledLegacy = await runCli(
    ["pull", "home", "--protocol", "legacy", "--url", url, "--header", `Authorization: Bearer ${TOKEN}`],
    legacyDir,
  );
  built = await runCli(["build"], dir);
});
afterAll(() => {
  server.kill();
});

const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));

describe("pull --url from mcp-gen serve --http", () => {
  it("is refused without the token", async () => {
    const r = await runCli(["pull", "other", "--url", url], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error MCPG092: ${url} did not accept the MCP request (HTTP 401)`);
  });

  it("writes a contract with the served tools, schemas and annotations as committed", () => {
    expect(pulled).toMatchObject({
      code: 0,
      stdout: "✓ home: 3 tools over MCP 2026-07-28 → schemas/home.tools.json\n  next: npx mcp-gen build\n",
    });
    const contract = json(path.join(dir, "schemas/home.tools.json"));
    const committed = json(path.join(REPO_ROOT, "schemas/smart-home.tools.json"));
    // search_devices returns an array: 2026-07-28 clients get its schema as it is, 2025 clients
    // wrapped as { result } and marked in _meta. The pull records it wrapped and as resultWrapped,
    // so the pulled client reads the result as the one built from the sources.
    expect(contract["x-mcp-gen"]).toStrictEqual({
      pulledFrom: { url },
      tools: { search_devices: { resultWrapped: true } },
    });
    // The same tools as committed, without the source bindings only the serving side needs.
    expect(contract.tools).toStrictEqual(committed.tools);
  });

  it("writes the same contract when it speaks the 2025 protocol", () => {
    expect(pulledLegacy).toMatchObject({
      code: 0,
      stdout: "✓ home: 3 tools over MCP 2025-11-25 → schemas/home.tools.json\n  next: npx mcp-gen build\n",
    });
    const text = (root: string) => readFileSync(path.join(root, "schemas/home.tools.json"), "utf8");
    expect(text(legacyDir)).toBe(text(dir));
  });

  it("mcp-gen diff finds nothing between the committed contract and the pulled one", async () => {
    const r = await runCli(
      [
        "diff",
        path.join(REPO_ROOT, "schemas/smart-home.tools.json"),
        path.join(dir, "schemas/home.tools.json"),
      ],
      dir,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("no changes");
  });

  it("builds a typed client that calls the served tools over HTTP", async () => {
    expect(built.stderr).toBe("");
    expect(built.code).toBe(0);
    const { createHomeClient } = await import(pathToFileURL(path.join(dir, "generated/home/client.ts")).href);
    const connection: Connection = await connectHttp(url, { headers: { Authorization: `Bearer ${TOKEN}` } });
    try {
      const home = createHomeClient(connection.client);
      const found = await home.searchDevices({ query: "客厅 灯" });
      expect(found.ok).toBe(true);
      expect(found.value.length).toBeGreaterThan(0);
      const lamp = found.value[0];
      const done = await home.executeCommands({
        device_id: lamp.fullId,
        commands: [{ component: "main", capability: "switch", command: "on" }],
      });
      expect(done).toMatchObject({ ok: true, value: { status: "ACCEPTED" } });
    } finally {
      await connection.close();
    }
  });
});
