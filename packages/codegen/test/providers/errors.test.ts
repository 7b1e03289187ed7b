import path from "node:path";
import type { Target } from "@mcp-gen/schema";
import { McpGenError } from "@mcp-gen/schema";
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

  it("tool names a provider does not accept", () => {
    expect(errorsOf("names", ["anthropic", "openai", "gemini"])).toStrictEqual([
      'MCPG060 /tools/1/name [anthropic/tool-name] tool "read.file" cannot be sent to anthropic: the name does not match ^[a-zA-Z0-9_-]{1,64}$',
      'MCPG060 /tools/1/name [openai/tool-name] tool "read.file" cannot be sent to openai: the name does not match ^[a-zA-Z0-9_-]{1,64}$',
      'MCPG060 /tools/1/name [openai/tool-name] tool "read.file" cannot be sent to openai-strict: the name does not match ^[a-zA-Z0-9_-]{1,64}$',
    ]);
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
