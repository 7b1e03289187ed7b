import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { McpGenError } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.ts";
import { validateConfig } from "../../src/config/validate.ts";

const problems = (raw: unknown) => {
  try {
    validateConfig(raw, "mcp-gen.config.json");
    return [];
  } catch (error) {
    return (error as McpGenError).diagnostics.map((d) => `${d.pointer} ${d.message}`);
  }
};

describe("config: targets", () => {
  it("defaults to every provider", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcp-gen-config-"));
    writeFileSync(path.join(dir, "mcp-gen.config.json"), "{}");
    expect((await loadConfig({ cwd: dir })).targets).toStrictEqual(["anthropic", "openai", "gemini"]);
    writeFileSync(path.join(dir, "mcp-gen.config.json"), '{ "targets": ["gemini"] }');
    expect((await loadConfig({ cwd: dir })).targets).toStrictEqual(["gemini"]);
  });

  it("rejects unknown, repeated and non-array targets with their pointers", () => {
    expect(problems({ targets: ["openai", "mistral", "openai"] })).toStrictEqual([
      '/targets/1 unknown target "mistral" (known: anthropic, openai, gemini)',
      '/targets/2 target "openai" is listed twice',
    ]);
    expect(problems({ targets: "openai" })).toStrictEqual([
      '/targets "targets" must be an array of anthropic, openai, gemini',
    ]);
    expect(problems({ targets: [] })).toStrictEqual([]);
  });
});
