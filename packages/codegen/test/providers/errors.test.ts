import path from "node:path";
import { describe, expect, it } from "vitest";
import { readContract } from "../../src/contract/read.ts";
import { McpGenError } from "../../src/diagnostics.ts";
import { emitServer } from "../../src/emit/index.ts";
import type { Target } from "../../src/emit/providers/model.ts";

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
  it("recursive types: an error for Anthropic and Gemini, none for OpenAI", () => {
    const at = "/tools/0/inputSchema/properties/root/properties/children/items";
    expect(errorsOf("recursive", ["anthropic", "gemini"])).toStrictEqual([
      `MCPG060 ${at} [anthropic/no-ref] tool "save_tree" cannot be sent to anthropic: recursive type (#/$defs/Node) cannot be expanded, and the Messages API does not accept $ref in input_schema`,
      `MCPG060 ${at} [gemini/no-recursion] tool "save_tree" cannot be sent to gemini: recursive type (#/$defs/Node) cannot be expressed without references`,
      `MCPG060 ${at} [gemini/no-recursion] tool "save_tree" cannot be sent to gemini-json-schema: recursive type (#/$defs/Node) is not expanded for Gemini`,
    ]);
    expect(errorsOf("recursive", ["openai"])).toStrictEqual([]);
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
