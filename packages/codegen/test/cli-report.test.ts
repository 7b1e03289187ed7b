import { afterEach, describe, expect, it, vi } from "vitest";
import { run } from "../src/cli/report.js";

describe("the CLI's error report", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });

  function stderrOf(error: unknown): Promise<string> {
    let text = "";
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      text += String(chunk);
      return true;
    });
    return run(() => Promise.reject(error)).then(() => text);
  }

  it("prints a missing optional package as what to install, not as an internal error", async () => {
    const error = Object.assign(
      new Error('anthropicModel() needs the package "@anthropic-ai/sdk" … npm install @anthropic-ai/sdk'),
      {
        code: "ERR_MCP_GEN_MISSING_PEER",
      },
    );
    const text = await stderrOf(error);
    expect(text).toBe(
      'mcp-gen: anthropicModel() needs the package "@anthropic-ai/sdk" … npm install @anthropic-ai/sdk\n',
    );
    expect(process.exitCode).toBe(1);
  });

  it("still reports anything unexpected as an internal error with its stack", async () => {
    const text = await stderrOf(new TypeError("x is not a function"));
    expect(text).toMatch(/^mcp-gen: internal error: TypeError: x is not a function\n {4}at /);
    expect(process.exitCode).toBe(1);
  });
});
