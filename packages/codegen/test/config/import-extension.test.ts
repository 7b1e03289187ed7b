import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { McpGenError } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { importExtensionOf } from "../../src/config/import-extension.ts";
import { loadConfig } from "../../src/config/load.ts";
import { validateConfig } from "../../src/config/validate.ts";

/** A project folder with the given files; returns the extension its build would use. */
async function extensionIn(files: Record<string, unknown>): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), "mcp-gen-config-"));
  for (const [name, content] of Object.entries(files))
    writeFileSync(path.join(dir, name), typeof content === "string" ? content : JSON.stringify(content));
  return importExtensionOf(await loadConfig({ cwd: dir }));
}

const nodeNext = { compilerOptions: { module: "NodeNext", outDir: "dist", strict: true } };

describe("config: importExtension", () => {
  it("is .js without a tsconfig and with one that does not import .ts files", async () => {
    expect(await extensionIn({ "mcp-gen.config.json": "{}" })).toBe(".js");
    expect(await extensionIn({ "mcp-gen.config.json": "{}", "tsconfig.json": nodeNext })).toBe(".js");
  });

  it("is .ts when the tsconfig, or one it extends, allows .ts imports", async () => {
    const allow = { compilerOptions: { module: "NodeNext", noEmit: true, allowImportingTsExtensions: true } };
    expect(await extensionIn({ "mcp-gen.config.json": "{}", "tsconfig.json": allow })).toBe(".ts");
    const rewrite = { compilerOptions: { module: "NodeNext", rewriteRelativeImportExtensions: true } };
    expect(
      await extensionIn({
        "mcp-gen.config.json": '{ "tsconfig": "tsconfig.build.json" }',
        "tsconfig.base.json": rewrite,
        "tsconfig.build.json": { extends: "./tsconfig.base.json", include: ["src"] },
      }),
    ).toBe(".ts");
  });

  it("takes the config's value over the tsconfig's", async () => {
    const allow = { compilerOptions: { noEmit: true, allowImportingTsExtensions: true } };
    expect(
      await extensionIn({ "mcp-gen.config.json": '{ "importExtension": ".js" }', "tsconfig.json": allow }),
    ).toBe(".js");
    expect(
      await extensionIn({ "mcp-gen.config.json": '{ "importExtension": "" }', "tsconfig.json": nodeNext }),
    ).toBe("");
    expect(await extensionIn({ "mcp-gen.config.json": '{ "importExtension": ".ts" }' })).toBe(".ts");
  });

  it("rejects any other value, naming the allowed ones", () => {
    for (const value of ["js", ".mjs", null, 1]) {
      let message = "";
      try {
        validateConfig({ importExtension: value }, "mcp-gen.config.json");
      } catch (error) {
        message = (error as McpGenError).diagnostics.map((d) => `${d.pointer} ${d.message}`).join("\n");
      }
      expect(message).toBe(
        `/importExtension "importExtension" must be ".js", ".ts" or "" (no extension), not ${JSON.stringify(value)}`,
      );
    }
  });
});
