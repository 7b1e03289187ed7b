import { tmpdir } from "node:os";
import path from "node:path";
import { type Connection, connectStdio } from "@mcp-gen/runtime/client";
import ts from "typescript-5";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CodeMode, codeMode } from "../../src/code/index.ts";

/**
 * `codeMode()` over two third-party servers reached through the SDK client over stdio —
 * server-everything and server-memory — in each protocol era: declarations from their
 * `tools/list`, a program checked against them (0 calls when it does not check), then run.
 */
const SERVERS = path.resolve(import.meta.dirname, "../../../../node_modules/@modelcontextprotocol");

// These servers (2026.8.31) answer only the 2025 handshake: pinned to 2026-07-28 they fail, "auto"
// probes and falls back. The 2026-07-28 era of code mode is tested against mcp-gen's own server
// (serve-code.test.ts here and in packages/codegen).
describe.each([
  "legacy",
  "auto",
] as const)("code mode over server-everything and server-memory (%s)", (era) => {
  const connections: Connection[] = [];
  let code: CodeMode;
  beforeAll(async () => {
    const [everything, memory] = await Promise.all([
      connectStdio(
        {
          command: process.execPath,
          args: [path.join(SERVERS, "server-everything/dist/index.js"), "stdio"],
          stderr: "ignore",
        },
        { protocol: era },
      ),
      connectStdio(
        {
          command: process.execPath,
          args: [path.join(SERVERS, "server-memory/dist/index.js")],
          env: {
            MEMORY_FILE_PATH: path.join(
              tmpdir(),
              `mcp-gen-code-live-${era}-${process.pid}-${Date.now()}.jsonl`,
            ),
          },
          stderr: "ignore",
        },
        { protocol: era },
      ),
    ]);
    connections.push(everything, memory);
    code = await codeMode({
      servers: [
        {
          name: "everything",
          client: everything.client,
          tools: (await everything.client.listTools()).tools as never[],
        },
        { name: "memory", client: memory.client, tools: (await memory.client.listTools()).tools as never[] },
      ],
      typescript: ts,
    });
  });
  afterAll(async () => {
    await code?.close();
    await Promise.all(connections.map((c) => c.close()));
  });

  it("speaks the 2025 protocol, pinned or negotiated", () => {
    expect(connections.map((c) => c.era)).toStrictEqual(["legacy", "legacy"]);
  });

  it("refuses a misspelled tool and a wrong argument type with their lines, making 0 calls", async () => {
    const result = await code.run(`const s = await everything.get_summ({ a: 1, b: 2 });
await memory.create_entities({ entities: [{ name: 1, entityType: "person", observations: [] }] });
return s;`);
    expect(result.ok).toBe(false);
    expect(result.calls).toStrictEqual([]);
    expect(result.diagnostics.map((d) => d.line)).toStrictEqual([1, 2]);
  });

  it("runs one program over both servers (identifiers for names like get-sum)", async () => {
    const result = await code.run(
      `const [sum] = await Promise.all([everything.get_sum({ a: 2, b: 3 })]);
await memory.create_entities({ entities: [{ name: "ada-${era}", entityType: "person", observations: ["sum " + String(sum)] }] });
const graph = await memory.read_graph();
return graph.entities.map((e) => e.name + ": " + e.observations.join("; "));`,
      { permission: () => true },
    );
    expect(result.ok, "message" in result ? result.message : "").toBe(true);
    expect(
      result.ok &&
        (result.value as string[]).some((line) => line.startsWith(`ada-${era}: sum `) && line.includes("5")),
    ).toBe(true);
    expect(result.calls.map((c) => [c.tool, c.outcome])).toStrictEqual([
      ["everything.get_sum", "ok"],
      ["memory.create_entities", "ok"],
      ["memory.read_graph", "ok"],
    ]);
  });
});
