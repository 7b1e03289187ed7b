import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PullResult, pull } from "../../src/pull/pull.ts";
import type { PullSource } from "../../src/pull/source.ts";
import { runCli } from "../support/cli.ts";
import { tempProject } from "../support/project.ts";
import { serveV2Http } from "./support/v2-server.ts";

/**
 * pull speaks MCP 2026-07-28 to a server that does (`--protocol auto`, the default) and the 2025
 * protocol to one that does not, says which it spoke, and writes the same contract whichever it
 * was: a server on the official SDK v2 lists non-object output schemas as they are to 2026-07-28
 * clients and projected into `{ result }` to 2025 clients.
 */
const V2_STDIO = path.join(import.meta.dirname, "support/v2-stdio.ts");
const STATIC = path.join(import.meta.dirname, "support/static-stdio.ts");
const v2Stdio: PullSource = { kind: "stdio", command: process.execPath, args: ["--import", "tsx", V2_STDIO] };
const project = () => tempProject({ "mcp-gen.config.json": '{ "servers": {} }\n' });
const read = (dir: string) => readFileSync(path.join(dir, "schemas/v2.tools.json"), "utf8");

/** The recorded form of list_devices's array result: wrapped, its definitions at the root. */
const LIST_DEVICES_OUTPUT = {
  type: "object",
  properties: { result: { type: "array", items: { $ref: "#/$defs/Device" } } },
  required: ["result"],
  additionalProperties: false,
  $defs: {
    Device: {
      type: "object",
      properties: {
        id: { type: "string" },
        room: { type: "string" },
        // `#/items` of the natural schema is `#/properties/result/items` in the recorded form,
        // whose target pull's normalisation hoists into $defs.
        twin: { $ref: "#/$defs/items" },
      },
      required: ["id", "room"],
    },
    items: { $ref: "#/$defs/Device" },
  },
};

describe("an SDK v2 server over stdio", () => {
  const dirs = { auto: project(), legacy: project(), pinned: project() };
  const pulled: Partial<Record<keyof typeof dirs, PullResult>> = {};
  beforeAll(async () => {
    pulled.auto = await pull({ name: "v2", source: v2Stdio, cwd: dirs.auto });
    pulled.legacy = await pull({ name: "v2", source: v2Stdio, protocol: "legacy", cwd: dirs.legacy });
    pulled.pinned = await pull({ name: "v2", source: v2Stdio, protocol: "2026-07-28", cwd: dirs.pinned });
  });

  it("auto and 2026-07-28 speak 2026-07-28, legacy the 2025 protocol", () => {
    expect(pulled.auto?.protocol).toStrictEqual({ era: "modern", version: "2026-07-28" });
    expect(pulled.pinned?.protocol).toStrictEqual({ era: "modern", version: "2026-07-28" });
    expect(pulled.legacy?.protocol).toStrictEqual({ era: "legacy", version: "2025-11-25" });
    expect(pulled.auto?.serverInfo).toMatchObject({ name: "v2-fixture", version: "2.0.0" });
  });

  it("writes the same contract, byte for byte, whichever protocol it spoke", () => {
    expect(read(dirs.legacy)).toBe(read(dirs.auto));
    expect(read(dirs.pinned)).toBe(read(dirs.auto));
  });

  it("records non-object results wrapped, as resultWrapped; object results as they are", () => {
    const contract = pulled.auto!.contract;
    expect(contract["x-mcp-gen"]?.tools).toStrictEqual({
      count: { resultWrapped: true },
      list_devices: { resultWrapped: true },
    });
    const output = (name: string) => contract.tools.find((t) => t.name === name)?.outputSchema;
    expect(output("list_devices")).toStrictEqual(LIST_DEVICES_OUTPUT);
    expect(output("count")).toStrictEqual({
      type: "object",
      properties: { result: { type: "integer", minimum: 0 } },
      required: ["result"],
      additionalProperties: false,
    });
    expect(output("status")).toStrictEqual({
      type: "object",
      properties: { ok: { type: "boolean" } },
      required: ["ok"],
    });
  });
});

describe("an SDK v2 server over Streamable HTTP", () => {
  let server: Awaited<ReturnType<typeof serveV2Http>>;
  const dirs = { auto: project(), legacy: project(), stdio: project() };
  let cli: Awaited<ReturnType<typeof runCli>>;
  let legacy: PullResult;
  beforeAll(async () => {
    server = await serveV2Http();
    const http: PullSource = { kind: "http", url: server.url, headers: {} };
    await pull({ name: "v2", source: v2Stdio, cwd: dirs.stdio });
    cli = await runCli(["pull", "v2", "--url", server.url], dirs.auto);
    legacy = await pull({ name: "v2", source: http, protocol: "legacy", cwd: dirs.legacy });
  });
  afterAll(() => server.close());

  it("says in its summary which protocol it spoke", () => {
    expect(cli).toMatchObject({
      code: 0,
      stdout: "✓ v2: 4 tools over MCP 2026-07-28 → schemas/v2.tools.json\n  next: npx mcp-gen build\n",
    });
    expect(legacy.protocol).toStrictEqual({ era: "legacy", version: "2025-11-25" });
  });

  it("records the same tools as over stdio, in either protocol", () => {
    const tools = (dir: string) => JSON.parse(read(dir)).tools;
    expect(tools(dirs.auto)).toStrictEqual(tools(dirs.stdio));
    expect(tools(dirs.legacy)).toStrictEqual(tools(dirs.stdio));
    expect(JSON.parse(read(dirs.auto))["x-mcp-gen"]).toStrictEqual({
      pulledFrom: { url: server.url },
      tools: { count: { resultWrapped: true }, list_devices: { resultWrapped: true } },
    });
  });

  it("keeps a tool whose x-mcp-header is invalid, which listTools() would leave out on 2026-07-28", () => {
    const echo = JSON.parse(read(dirs.auto)).tools.find((t: { name: string }) => t.name === "echo");
    expect(echo?.inputSchema.properties.text).toStrictEqual({ type: "string", "x-mcp-header": "Bad Name" });
  });
});

describe("a server of the 2025 protocol", () => {
  let dir: string;
  beforeAll(() => {
    dir = tempProject({
      "mcp-gen.config.json": '{ "servers": {} }\n',
      "tools.json": JSON.stringify([{ name: "ping", inputSchema: { type: "object" } }]),
    });
  });

  it("auto falls back to the 2025 protocol, and says so", async () => {
    const r = await runCli(
      ["pull", "old", "--", process.execPath, "--import", "tsx", STATIC, "tools.json"],
      dir,
    );
    expect(r).toMatchObject({
      code: 0,
      stdout: "✓ old: 1 tool over MCP 2025-11-25 → schemas/old.tools.json\n  next: npx mcp-gen build\n",
    });
  });

  it("that exits on server/discover is started again and spoken to in the 2025 protocol", async () => {
    const source: PullSource = {
      kind: "stdio",
      command: process.execPath,
      args: ["--import", "tsx", STATIC, "tools.json", "--exit-on-discover"],
    };
    const result = await pull({ name: "strict", source, cwd: dir });
    expect(result.protocol).toStrictEqual({ era: "legacy", version: "2025-11-25" });
    expect(result.contract.tools.map((t) => t.name)).toStrictEqual(["ping"]);
  });

  it("--protocol takes auto, legacy or 2026-07-28 only", async () => {
    const r = await runCli(["pull", "old", "--protocol", "2025-11-25"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "option '--protocol <protocol>' argument '2025-11-25' is invalid. Allowed choices are auto, legacy, 2026-07-28.",
    );
  });
});
