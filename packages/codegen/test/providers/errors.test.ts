import path from "node:path";
import type { Target } from "@mcp-gen/schema";
import { convertContract, McpGenError } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { readContract } from "../../src/contract/read.ts";
import { emitServer } from "../../src/emit/index.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/contracts");

function errorsOf(name: string, targets: Target[]): string[] {
  const contract = readContract(path.join(FIXTURES, `${name}.tools.json`));
  try {
    emitServer(contract, {
      contractFile: `schemas/${name}.tools.json`,
      outDir: `generated/${name}`,
      targets,
    });
  } catch (error) {
    if (error instanceof McpGenError)
      return error.diagnostics.map((d) => `${d.code} ${d.pointer} ${d.message}`);
    throw error;
  }
  return [];
}

describe("a tool a target cannot express stops the build, naming the rule", () => {
  it("recursive types are expanded a few levels for every target, never an error", () => {
    expect(errorsOf("recursive", ["anthropic", "openai", "gemini"])).toStrictEqual([]);
  });

  it("a tool name a provider rejects is renamed for it, unless another tool has that name", () => {
    expect(errorsOf("names", ["anthropic", "openai", "gemini"])).toStrictEqual([]);
    // The build stops such a pair earlier (MCPG032: one TypeScript name); the conversion itself
    // refuses it too, for contracts converted at run time.
    const tool = (name: string) => ({ name, inputSchema: { type: "object" as const } });
    const clash = convertContract({ server: "x", tools: [tool("read.file"), tool("read_file")] }, [
      "anthropic",
    ]);
    expect(clash.problems).toStrictEqual([
      {
        dialect: "anthropic",
        tool: "read.file",
        pointer: "/tools/0/name",
        rule: "anthropic/tool-name",
        message:
          'the name is sent as "read_file" (the dialect rejects "read.file"), which is also the name of tool "read_file"',
      },
    ]);
    expect(clash.definitions.anthropic?.map((d) => d.name)).toStrictEqual(["read_file"]);
  });

  it("emits no provider file when no target is configured", () => {
    const contract = readContract(path.join(FIXTURES, "names.tools.json"));
    const { files } = emitServer(contract, { contractFile: "c", outDir: "g", targets: [] });
    expect(files.filter((f) => f.path.includes("providers/"))).toStrictEqual([]);
  });
});

describe("the build runs the MCP rules lint checks", () => {
  it("stops on a broken MCP rule, before anything is emitted", () => {
    const contract = readContract(path.join(FIXTURES, "../lint/bad.tools.json"));
    expect(() =>
      emitServer(contract, { contractFile: "schemas/bad.tools.json", outDir: "g", targets: [] }),
    ).toThrow(
      [
        'error MCPG061: [mcp/required-declared] required property "path" is not declared, and no other property is allowed',
        "  at schemas/bad.tools.json /tools/0/inputSchema/required",
        "  fix: correct the tool at the JSON pointer named in the message",
        "",
        "error MCPG061: [mcp/annotations] readOnlyHint must be a boolean",
        "  at schemas/bad.tools.json /tools/0/annotations/readOnlyHint",
        "  fix: correct the tool at the JSON pointer named in the message",
      ].join("\n"),
    );
  });
});
