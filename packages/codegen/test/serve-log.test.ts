import { spawn } from "node:child_process";
import { connectHttp } from "@mcp-gen/runtime/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "./support/cli.ts";
import { REPO_ROOT } from "./support/project.ts";

/** `mcp-gen serve conformance --http` with `flags`; its stderr split into lines. */
async function serveConformance(flags: string[]) {
  const child = spawn(process.execPath, [BIN, "serve", "conformance", "--http", "--port", "0", ...flags], {
    cwd: REPO_ROOT,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /serving conformance \(\d+ tools\) on (\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`mcp-gen serve exited (${code}): ${stderr}`)));
  });
  /** The JSON lines written so far. */
  const records = () =>
    stderr
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { child, url, exited, records, stderr: () => stderr };
}

describe("mcp-gen serve --log-format json", () => {
  let served: Awaited<ReturnType<typeof serveConformance>>;
  beforeAll(async () => {
    served = await serveConformance(["--log-format", "json", "--timeout", "300"]);
  });
  afterAll(async () => {
    served.child.kill("SIGTERM");
    await served.exited;
  });

  it("writes one JSON line per call with its outcome, era and session, and no arguments", async () => {
    const legacy = await connectHttp(served.url, { protocol: "legacy" });
    const modern = await connectHttp(served.url, { protocol: "2026-07-28" });
    await legacy.client.callTool({ name: "test_simple_text", arguments: {} });
    await modern.client.callTool({ name: "test_simple_text", arguments: {} });
    await legacy.client.callTool({ name: "test_error_handling", arguments: {} });
    await legacy.client.callTool({ name: "json_schema_2020_12_tool", arguments: { name: 5 } });
    await expect(legacy.client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow();
    // test_sampling waits for the client's model, which this client has not: the 300 ms limit ends it.
    const sampling = await connectHttp(served.url, {
      protocol: "legacy",
      clientOptions: { capabilities: { sampling: {} } },
    });
    sampling.client.setRequestHandler("sampling/createMessage", () => new Promise(() => {}));
    await sampling.client.callTool({ name: "test_sampling", arguments: { prompt: "secret prompt" } });
    await expect.poll(() => served.records().length).toBe(6);

    const session = legacy.client.transport?.sessionId;
    const records = served.records();
    expect(records.map((r) => [r.kind, r.name, r.outcome, r.era])).toStrictEqual([
      ["tool", "test_simple_text", "ok", "2025"],
      ["tool", "test_simple_text", "ok", "2026-07-28"],
      ["tool", "test_error_handling", "tool-error", "2025"],
      ["tool", "json_schema_2020_12_tool", "invalid-arguments", "2025"],
      ["tool", "no_such_tool", "protocol-error", "2025"],
      ["tool", "test_sampling", "timeout", "2025"],
    ]);
    for (const record of records) {
      expect(Object.keys(record).sort()).toStrictEqual(
        [
          "time",
          "kind",
          "name",
          "durationMs",
          "outcome",
          "era",
          "requestId",
          ...(record.era === "2025" ? ["session"] : []),
        ].sort(),
      );
      expect(new Date(record.time as string).toISOString()).toBe(record.time);
      expect(record.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(records[0]!.session).toBe(session);
    expect(served.stderr()).not.toContain("secret prompt");
    await Promise.all([legacy.close(), modern.close(), sampling.close()]);
  });
});

describe("mcp-gen serve --log-arguments", () => {
  it("puts the arguments in the log lines", async () => {
    const served = await serveConformance(["--log-format", "json", "--log-arguments"]);
    const { client, close } = await connectHttp(served.url, { protocol: "legacy" });
    const args = { name: "Ada", email: "ada@example.com" };
    await client.callTool({ name: "json_schema_2020_12_tool", arguments: args });
    await expect.poll(() => served.records().length).toBe(1);
    expect(served.records()[0]).toMatchObject({ outcome: "ok", arguments: args });
    await close();
    served.child.kill("SIGTERM");
    expect(await served.exited).toBe(0);
  });
});

describe("mcp-gen serve refuses bad flags with a clear message", () => {
  it.each([
    [["--http", "--log-arguments"], "mcp-gen: --log-arguments needs --log-format json\n"],
    [
      ["--http", "--log-format", "xml"],
      /option '--log-format <format>' argument 'xml' is invalid\. use "text" or "json"/,
    ],
    [
      ["--session-route", "replica-1"],
      "mcp-gen: --session-route needs --http (stdio has no sessions to route)\n",
    ],
    [
      ["--http", "--session-route", "replica 1"],
      /option '--session-route <name>' argument 'replica 1' is invalid\. use 1 to 32 letters, digits, "-" or "_", e\.g\. replica-1/,
    ],
  ] as [string[], string | RegExp][])("%j", async (flags, message) => {
    const child = spawn(process.execPath, [BIN, "serve", "conformance", ...flags], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise((resolve) => child.once("exit", resolve));
    expect(code).toBe(1);
    if (typeof message === "string") expect(stderr).toBe(message);
    else expect(stderr).toMatch(message);
  });
});
