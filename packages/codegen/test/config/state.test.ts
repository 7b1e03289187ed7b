import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { McpGenError } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.ts";
import { validateConfig } from "../../src/config/validate.ts";

// `state` in mcp-gen.config: the shared state URL `mcp-gen serve` uses without --state
// (served against real engines in serve-state-takeover.test.ts).

describe("config: state", () => {
  it("keeps the URL for mcp-gen serve", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcp-gen-config-"));
    writeFileSync(path.join(dir, "mcp-gen.config.json"), '{ "state": "redis://cache:6379?namespace=app" }');
    expect((await loadConfig({ cwd: dir })).state).toBe("redis://cache:6379?namespace=app");
    for (const url of ["postgres://app@db/app", "postgresql://db/app", "rediss://cache", "memory:"]) {
      expect(validateConfig({ state: url }, "mcp-gen.config.json").state).toBe(url);
    }
  });

  it("rejects what --state would not take, with its pointer and the forms it takes", () => {
    for (const value of ["localhost:6379", "mysql://db", "", 6379]) {
      let message = "";
      try {
        validateConfig({ state: value }, "mcp-gen.config.json");
      } catch (error) {
        message = (error as McpGenError).diagnostics.map((d) => `${d.pointer} ${d.message}`).join("\n");
      }
      expect(message).toBe(
        `/state "state" must be a URL as --state takes it: "redis://host:6379", "postgres://user@host/db" or "memory:", not ${JSON.stringify(value)}`,
      );
    }
  });
});
