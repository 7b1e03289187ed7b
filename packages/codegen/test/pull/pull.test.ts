import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { formatDiagnostic } from "@mcp-gen/schema";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { pull } from "../../src/pull/pull.ts";
import type { PullSource } from "../../src/pull/source.ts";
import { runCli } from "../support/cli.ts";
import { tempProject } from "../support/project.ts";

/**
 * Pulling from a server whose tools a test controls: schemas as real-world generators write
 * them (draft-04/07 with `definitions`, OpenAPI `nullable`, pydantic, zod, remote refs), paging,
 * byte-stable output whatever the order the server sends, and drift.
 */
const STATIC = path.join(import.meta.dirname, "support/static-stdio.ts");
const REAL_WORLD = path.join(import.meta.dirname, "../fixtures/pull/real-world.tools.json");
const stdio = (...args: string[]): PullSource => ({
  kind: "stdio",
  command: process.execPath,
  args: ["--import", "tsx", STATIC, ...args],
});
// Anthropic and OpenAI reject tool names with dots (read.file): their definitions rename it (last test).
const project = (config = '{ "targets": ["gemini"], "servers": {} }') =>
  tempProject({
    "mcp-gen.config.json": `${config}\n`,
    "package.json": '{ "type": "module", "private": true }\n',
  });

describe("pulling real-world schemas", () => {
  let dir: string;
  let result: Awaited<ReturnType<typeof pull>>;
  let build: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    dir = project();
    copyFileSync(REAL_WORLD, path.join(dir, "tools.json"));
    process.env.PAGE_SIZE = "2";
    try {
      result = await pull({ name: "real", source: stdio("tools.json"), cwd: dir });
    } finally {
      delete process.env.PAGE_SIZE;
    }
    build = await runCli(["build"], dir);
  });
  const read = (file: string) => readFileSync(path.join(dir, file), "utf8");

  it("follows pagination and writes every tool, sorted, normalised to 2020-12", async () => {
    expect(result.status).toBe("created");
    expect(result.contract.tools.map((t) => t.name)).toStrictEqual([
      "get-sum",
      "locate",
      "ping",
      "read.file",
      "search_issues",
    ]);
    // The recorded command holds machine paths; the snapshot names them.
    const portable = read("schemas/real.tools.json")
      .replaceAll(JSON.stringify(process.execPath), '"<node>"')
      .replaceAll(JSON.stringify(STATIC), '"<static-stdio.ts>"');
    await expect(portable).toMatchFileSnapshot("../fixtures/pull/expected/real.tools.json");
  });

  it("reports what it keeps without meaning, naming tool and pointer in the written contract", () => {
    expect(result.warnings.map(formatDiagnostic)).toStrictEqual([
      'warning MCPG121: tool "locate": format "objectid" is not one the validators know; kept as an annotation, not checked\n' +
        "  at schemas/real.tools.json /tools/1/inputSchema/properties/id/format\n" +
        "  fix: use a format the validators know (date-time, email, uri, uuid …) or a pattern",
      'warning MCPG120: tool "locate": keyword "widget" is not JSON Schema 2020-12; kept as an annotation, it validates nothing\n' +
        "  at schemas/real.tools.json /tools/1/inputSchema/properties/shape/widget\n" +
        "  fix: use JSON Schema 2020-12 keywords (vendor annotations start with x-)",
      'warning MCPG122: tool "locate": $ref "https://example.com/schemas/geo.json" is not local, and mcp-gen never fetches schemas; typed as unknown, accepts any value\n' +
        "  at schemas/real.tools.json /tools/1/inputSchema/properties/geo/$ref\n" +
        "  fix: inline the referenced schema, or put it under $defs and refer to it as #/$defs/<name>",
    ]);
  });

  it("builds: Ajv compiles what the server sent, and the build repeats the warnings", async () => {
    expect(build.code).toBe(0);
    expect(build.stderr).toContain(
      'warning MCPG122: tool "locate": $ref "https://example.com/schemas/geo.json" is not local',
    );
    expect(build.stderr).toContain('warning MCPG120: tool "locate": keyword "widget"');
    expect(build.stderr.match(/^warning/gm)).toHaveLength(3);
    await expect(read("generated/real/types.ts")).toMatchFileSnapshot(
      "../fixtures/pull/expected/real.types.ts",
    );
    await expect(read("generated/real/api.d.ts")).toMatchFileSnapshot(
      "../fixtures/pull/expected/real.api.d.ts",
    );
    expect(read("generated/real/client.ts")).toContain(
      "readFile(args: T.ReadFileInput, options?: CallOptions): Promise<ToolCallResult<ToolContent>>;",
    );
  });

  it("validates with the emitted validators what the schemas say", async () => {
    const { validators } = await import(pathToFileURL(path.join(dir, "generated/real/index.ts")).href);
    const search = validators.search_issues.input;
    expect(search.check({ query: "x", assignee: null, page: 1, labels: [{ name: "bug" }] }).ok).toBe(true);
    expect(search.check({ query: "x", page: 0 }).ok).toBe(false);
    expect(search.check({ query: "x", labels: [{ color: "ffffff" }] }).ok).toBe(false);
    const sum = validators["get-sum"];
    expect(sum.input.check({ a: 1, b: 2, pair: [1, 2] }).ok).toBe(true);
    expect(sum.input.check({ a: 1, b: 2, pair: [1, 2, 3] }).ok).toBe(false);
    expect(sum.output.check({ ok: false, error: "overflow" }).ok).toBe(true);
    expect(sum.output.check({ ok: true }).ok).toBe(false);
    expect(validators.locate.input.check({ id: "5f1", geo: { anything: true } }).ok).toBe(true);
  });
});

describe("pulling again", () => {
  let dir: string;
  const tools = () => JSON.parse(readFileSync(REAL_WORLD, "utf8")) as Tool[];
  const write = (list: unknown) => writeFileSync(path.join(dir, "tools.json"), JSON.stringify(list));
  beforeAll(async () => {
    dir = project();
    write(tools());
    await pull({ name: "real", source: stdio("tools.json"), cwd: dir });
  });

  it("changes no byte when the server sends the same tools in another order", async () => {
    const before = readFileSync(path.join(dir, "schemas/real.tools.json"), "utf8");
    write(
      tools()
        .reverse()
        .map((t) => Object.fromEntries(Object.entries(t).reverse())),
    );
    const again = await pull({ name: "real", cwd: dir });
    expect(again.status).toBe("unchanged");
    expect(again.changes).toStrictEqual([]);
    expect(readFileSync(path.join(dir, "schemas/real.tools.json"), "utf8")).toBe(before);
  });

  it("--check tells drift apart, classified, and writes nothing; pull then takes the change", async () => {
    const changed = tools().filter((t) => t.name !== "ping");
    const sum = changed.find((t) => t.name === "get-sum")!;
    (sum.inputSchema.properties as Record<string, unknown>).c = { type: "number" };
    (sum.inputSchema.required as string[]).push("c");
    write([...changed, { name: "pong", inputSchema: { type: "object" } }]);
    const before = readFileSync(path.join(dir, "schemas/real.tools.json"), "utf8");

    const check = await runCli(["pull", "real", "--check"], dir);
    expect(check.code).toBe(1);
    expect(check.stderr).toBe(
      "error MCPG093: the live server differs from schemas/real.tools.json (2 breaking changes, 1 non-breaking change)\n" +
        "  at schemas/real.tools.json\n" +
        "  fix: run `npx mcp-gen pull <name>` to take the server's current tools, review the diff and commit it\n\n" +
        '  breaking      get-sum  /inputSchema/properties/c  new required parameter "c"\n' +
        '  breaking      ping     tool "ping" removed\n' +
        '  non-breaking  pong     tool "pong" added\n',
    );
    expect(readFileSync(path.join(dir, "schemas/real.tools.json"), "utf8")).toBe(before);

    const update = await runCli(["pull", "real"], dir);
    expect(update.code).toBe(0);
    expect(update.stdout).toBe(
      "✓ real: 5 tools over MCP 2025-11-25 → schemas/real.tools.json (2 breaking changes, 1 non-breaking change)\n" +
        '  breaking      get-sum  /inputSchema/properties/c  new required parameter "c"\n' +
        '  breaking      ping     tool "ping" removed\n' +
        '  non-breaking  pong     tool "pong" added\n' +
        "  next: npx mcp-gen build\n",
    );
    expect((await runCli(["pull", "real", "--check"], dir)).code).toBe(0);
  });
});

describe("pull refuses, writing nothing", () => {
  let dir: string;
  beforeAll(() => {
    dir = project();
  });

  it("two tools that map to one method name, naming both", async () => {
    writeFileSync(
      path.join(dir, "clash.json"),
      JSON.stringify([
        { name: "get_sum", inputSchema: { type: "object" } },
        { name: "get.sum", inputSchema: { type: "object" } },
      ]),
    );
    const r = await runCli(
      ["pull", "clash", "--", process.execPath, "--import", "tsx", STATIC, "clash.json"],
      dir,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'error MCPG032: tools "get.sum" and "get_sum" both map to the TypeScript name GetSum\n' +
        "  at schemas/clash.tools.json /tools/1/name",
    );
    expect(existsSync(path.join(dir, "schemas/clash.tools.json"))).toBe(false);
  });

  it("a name the config builds from TypeScript", async () => {
    const ts = tempProject({
      "mcp-gen.config.json": '{ "servers": { "home": { "tools": ["tools.ts"] } } }\n',
    });
    const r = await runCli(["pull", "home", "--", "node", "server.js"], ts);
    expect(r).toMatchObject({ code: 1 });
    expect(r.stderr).toContain('error MCPG094: "home" is a server the config builds from TypeScript');
  });

  it("no command or URL, both, or a malformed header", async () => {
    expect((await runCli(["pull", "nothing"], dir)).stderr).toContain(
      'error MCPG094: no command or URL to pull "nothing" from',
    );
    expect(
      (await runCli(["pull", "both", "--url", "http://127.0.0.1:1/mcp", "--", "node"], dir)).stderr,
    ).toContain("error MCPG094: give either a command (after --) or --url, not both");
    expect(
      (await runCli(["pull", "h", "--url", "http://127.0.0.1:1/mcp", "-H", "nocolon"], dir)).stderr,
    ).toContain('error MCPG094: --header "nocolon" is not "Name: value"');
    expect((await runCli(["pull", "u", "--url", "ftp://example.com/mcp"], dir)).stderr).toContain(
      'error MCPG094: --url "ftp://example.com/mcp" must be http: or https: (Streamable HTTP)',
    );
  });
});

describe("a tool name a provider rejects", () => {
  it("is pulled, and sent to that provider under a name it accepts", async () => {
    const all = project('{ "servers": {} }');
    writeFileSync(
      path.join(all, "dotted.json"),
      JSON.stringify([{ name: "read.file", inputSchema: { type: "object" } }]),
    );
    const r = await runCli(
      ["pull", "dotted", "--", process.execPath, "--import", "tsx", STATIC, "dotted.json"],
      all,
    );
    expect(r.code).toBe(0);
    const build = await runCli(["build"], all);
    expect(build.code).toBe(0);
    expect(build.stdout).toContain(
      "1 tool renamed for anthropic, openai, openai-strict (generated/dotted/providers/report.json)\n",
    );
    const names = (dialect: string) =>
      JSON.parse(readFileSync(path.join(all, `generated/dotted/providers/${dialect}.json`), "utf8")).tools;
    expect(names("anthropic").map((t: { name: string }) => t.name)).toStrictEqual(["read_file"]);
    expect(names("gemini")[0].functionDeclarations.map((t: { name: string }) => t.name)).toStrictEqual([
      "read.file",
    ]);
    const { contractToolName } = await import(
      pathToFileURL(path.join(all, "generated/dotted/providers/index.ts")).href
    );
    expect(contractToolName("anthropic", "read_file")).toBe("read.file");
    expect(contractToolName("gemini", "read.file")).toBe("read.file");
  });
});
