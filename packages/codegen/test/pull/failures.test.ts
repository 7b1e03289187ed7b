import { existsSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { formatDiagnostic, McpGenError } from "@mcp-gen/schema";
import { beforeAll, describe, expect, it } from "vitest";
import { pull } from "../../src/pull/pull.ts";
import type { PullSource } from "../../src/pull/source.ts";
import { tempProject } from "../support/project.ts";

/**
 * A pull that cannot happen says which of three things went wrong — the server did not start,
 * did not answer, or is not MCP — with what it printed, and writes nothing. None of these
 * servers could ever succeed, so no outcome depends on timing.
 */
const STATIC = path.join(import.meta.dirname, "support/static-stdio.ts");
let dir: string;
beforeAll(() => {
  dir = tempProject({ "mcp-gen.config.json": '{ "servers": {} }\n' });
});

async function failure(source: PullSource, timeoutMs = 30_000, protocol?: "2026-07-28"): Promise<string> {
  try {
    await pull({ name: "broken", source, timeoutMs, cwd: dir, ...(protocol ? { protocol } : {}) });
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    expect(existsSync(path.join(dir, "schemas/broken.tools.json"))).toBe(false);
    return error.diagnostics.map(formatDiagnostic).join("\n\n");
  }
  throw new Error("pull succeeded");
}

const node = (script: string): PullSource => ({
  kind: "stdio",
  command: process.execPath,
  args: ["-e", script],
});

describe("stdio servers", () => {
  it("a command that does not exist did not start", async () => {
    expect(await failure({ kind: "stdio", command: "mcp-gen-no-such-server", args: [] })).toBe(
      'error MCPG090: cannot start "mcp-gen-no-such-server": command not found\n' +
        "  fix: check the command is installed and on PATH (or give its path)",
    );
  });

  it("a server that exits at once did not start, and its stderr is shown", async () => {
    const message = await failure(node("console.error('config.yaml: no such file'); process.exit(3)"));
    expect(message).toMatch(/^error MCPG090: .* exited before it finished the MCP handshake\n/);
    expect(message).toContain("  its stderr ended with:\n    | config.yaml: no such file\n");
  });

  it("a program that prints text on stdout is not an MCP server", async () => {
    expect(await failure(node("console.log('Server ready on port 8080')"))).toMatch(
      /^error MCPG092: .* is not an MCP server: it wrote something that is not JSON-RPC to stdout \(Unexpected token 'S', "Server rea"\.\.\. is not valid JSON\)\n/,
    );
  });

  it("a program that never answers did not answer within the timeout", async () => {
    const message = await failure(node("setInterval(() => {}, 1000)"), 300);
    expect(message).toMatch(
      /^error MCPG091: .* did not answer the MCP handshake and tools\/list within 300 ms\n/,
    );
  });

  it("an MCP server without tools offers no tools", async () => {
    const message = await failure({
      kind: "stdio",
      command: process.execPath,
      args: ["--import", "tsx", STATIC, "--no-tools"],
    });
    expect(message).toMatch(
      /^error MCPG092: .* offers no tools: it does not declare the "tools" capability\n/,
    );
  });

  it("a server of the 2025 protocol, when pull insists on 2026-07-28, does not speak it", async () => {
    const message = await failure(
      { kind: "stdio", command: process.execPath, args: ["--import", "tsx", STATIC, "--no-tools"] },
      30_000,
      "2026-07-28",
    );
    expect(message).toMatch(
      /^error MCPG092: .* does not speak MCP 2026-07-28: Version negotiation failed: the server did not offer pinned protocol version 2026-07-28 via server\/discover \(no fallback in pin mode\)\n {2}fix: pull with --protocol auto to accept a server of the 2025 protocol as well$/,
    );
  });
});

describe("HTTP servers", () => {
  it("nothing listening did not start", async () => {
    const port = await freePort();
    expect(await failure({ kind: "http", url: `http://127.0.0.1:${port}/mcp`, headers: {} })).toBe(
      `error MCPG090: nothing answers at http://127.0.0.1:${port}/mcp (ECONNREFUSED)\n` +
        "  fix: check the URL and that the server is running",
    );
  });
});

/** A port nothing listens on: bound, then released. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
