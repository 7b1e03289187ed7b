import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Connection, connectStdio } from "@mcp-gen/runtime/client";
import { type ApiServer, createChecker, renderDeclarations } from "@mcp-gen/runtime/code";
import ts from "typescript-5";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Code mode at run time, with no build step: the tools listed by real third-party servers over
 * stdio (server-memory, server-everything from npm) rendered as declarations and checked against.
 */
const SERVERS = path.resolve(import.meta.dirname, "../../../../node_modules/@modelcontextprotocol");
const connections: Connection[] = [];
let servers: ApiServer[] = [];
let dir = "";

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-code-"));
  for (const [name, script, args] of [
    ["memory", "server-memory/dist/index.js", []],
    ["everything", "server-everything/dist/index.js", ["stdio"]],
  ] as const) {
    const connection = await connectStdio({
      command: process.execPath,
      args: [path.join(SERVERS, script), ...args],
      env: { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") },
      stderr: "ignore",
    });
    connections.push(connection);
    const { tools } = await connection.client.listTools();
    servers.push({ name, tools: tools as ApiServer["tools"] });
  }
  servers = [...servers];
});

afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe("declarations of tools listed from live servers", () => {
  it("type one namespace per server, with each listed tool", () => {
    const text = renderDeclarations(servers);
    expect(text).toMatch(/^declare (?:namespace|const) memory\b/m);
    expect(text).toMatch(/^declare (?:namespace|const) everything\b/m);
    expect(text).toMatch(/function create_entities\(args: \{/);
    for (const s of servers)
      for (const t of s.tools) expect(text).toContain(`function ${t.name.replace(/[^A-Za-z0-9_$]/g, "_")}(`);
  });

  it("check a program against them: a right one passes, a mistyped one names the tool's argument type", async () => {
    const checker = await createChecker({ servers, typescript: ts });
    const good = checker.check(
      [
        'await memory.create_entities({ entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }] });',
        "const graph = await memory.read_graph();",
        'const echoed = await everything.echo({ message: "hi" });',
        "return { graph, echoed };",
      ].join("\n"),
    );
    expect(good).toMatchObject({ ok: true });
    const bad = checker.check('await memory.create_entities({ entities: [{ name: "Ada" }] });');
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.message).toMatch(/^1:43 .*entityType.*\(argument of memory\.create_entities, which takes /);
  });
});
