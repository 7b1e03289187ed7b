import path from "node:path";
import { formatDiagnostic } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { readContract } from "../../src/contract/read.ts";
import { lintContract } from "../../src/lint/index.ts";
import { runCli } from "../support/cli.ts";
import { REPO_ROOT, tempProject } from "../support/project.ts";

const BAD = path.join(import.meta.dirname, "../fixtures/lint/bad.tools.json");

describe("lintContract", () => {
  it("reports every broken MCP and provider rule with its JSON pointer", () => {
    const lint = lintContract(readContract(BAD), {
      file: "schemas/bad.tools.json",
      targets: ["anthropic", "openai", "gemini"],
    });
    expect(lint.diagnostics.map((d) => `${d.severity} ${d.code} ${d.pointer} ${d.message}`)).toStrictEqual([
      'warning MCPG061 /tools/0/name [mcp/tool-name] name "read file" should be 1-128 characters of A-Z a-z 0-9 _ - .',
      'error MCPG061 /tools/0/inputSchema/required [mcp/required-declared] required property "path" is not declared, and no other property is allowed',
      'warning MCPG061 /tools/0/inputSchema/properties/where/$ref [mcp/ref-resolves] $ref "#/$defs/Missing" does not resolve inside the schema: that part accepts any value',
      "error MCPG061 /tools/0/annotations/readOnlyHint [mcp/annotations] readOnlyHint must be a boolean",
      "warning MCPG061 /tools/1 [mcp/description] a tool without a description: models choose tools by it",
      'error MCPG060 /tools/0/inputSchema/properties/first name [anthropic/property-name] anthropic: tool "read file": property name "first name" does not match ^[a-zA-Z0-9_.-]{1,64}$',
      'error MCPG060 /tools/0/inputSchema/properties/where [gemini/schema] gemini: tool "read file": a `false` schema (no value allowed) cannot be expressed',
      'warning MCPG110 /tools/0/inputSchema/properties/where [openai-strict/fallback] tool "read file" is sent with strict: false: a boolean schema (any value) cannot be expressed',
      'warning MCPG110 /tools/1/inputSchema/properties/labels [openai-strict/fallback] tool "tag" is sent with strict: false: an object without declared properties (a map or any object) cannot be expressed',
      // A name a dialect rejects is renamed where the tool can be sent at all.
      'warning MCPG111 /tools/0/name [openai/tool-name] openai: tool "read file" is sent as "read_file": the name does not match ^[a-zA-Z0-9_-]{1,64}$',
      'warning MCPG111 /tools/0/name [openai/tool-name] openai-strict: tool "read file" is sent as "read_file": the name does not match ^[a-zA-Z0-9_-]{1,64}$',
      'warning MCPG111 /tools/0/name [gemini/tool-name] gemini-json-schema: tool "read file" is sent as "read_file": the name does not match ^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$',
    ]);
    expect(formatDiagnostic(lint.diagnostics[3]!)).toBe(
      [
        "error MCPG061: [mcp/annotations] readOnlyHint must be a boolean",
        "  at schemas/bad.tools.json /tools/0/annotations/readOnlyHint",
        "  fix: correct the tool at the JSON pointer named in the message",
      ].join("\n"),
    );
  });

  it("checks only the targets asked for", () => {
    const lint = lintContract(readContract(BAD), { file: "bad.tools.json", targets: [] });
    expect(lint.diagnostics.filter((d) => d.code !== "MCPG061")).toStrictEqual([]);
  });
});

describe("mcp-gen lint (real CLI)", () => {
  it("passes on the examples and exits 0", async () => {
    const result = await runCli(["lint", "--target", "gemini"], REPO_ROOT);
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n").at(-2)).toMatch(
      /^mcp-gen lint: 0 errors, 0 warnings \(\d+ contracts, \d+ tools; targets: gemini\)$/,
    );
  });

  it("checks hand-written contracts in schemas/ and exits 1 on errors", async () => {
    const dir = tempProject({
      "mcp-gen.config.json": '{ "targets": ["anthropic"] }\n',
      "schemas/bad.tools.json": JSON.stringify(readContract(BAD)),
    });
    const result = await runCli(["lint"], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'error MCPG060: [anthropic/property-name] anthropic: tool "read file": property name "first name" does not match ^[a-zA-Z0-9_.-]{1,64}$\n    at schemas/bad.tools.json /tools/0/inputSchema/properties/first name\n',
    );
    expect(result.stdout.split("\n").at(-2)).toBe(
      "mcp-gen lint: 3 errors, 3 warnings (1 contract, 2 tools; targets: anthropic)",
    );
  });
});
