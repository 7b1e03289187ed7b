import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  type ConnectStdioOptions,
  connectStdio,
  expectOk,
  type ProtocolChoice,
  type StdioConnection,
} from "@mcp-gen/runtime/client";
import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { createSmartHomeClient } from "../../../../generated/smart-home/client.ts";
import { DEVICES, type Era } from "./era-server.ts";

/** Real child processes: `mcp-gen serve` runs the compiled packages (`tsc -b` first). */
const ROOT = path.join(import.meta.dirname, "../../../..");
const BIN = path.join(ROOT, "packages/codegen/bin/mcp-gen.js");
const ERA_STDIO = path.join(import.meta.dirname, "era-stdio.ts");
const MEMORY_SERVER = path.join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");

const open: StdioConnection[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function connect(
  args: string[],
  protocol: ProtocolChoice,
  options: ConnectStdioOptions = {},
): Promise<StdioConnection> {
  const connection = await connectStdio(
    { command: process.execPath, args, cwd: ROOT, stderr: "ignore" },
    { ...options, protocol },
  );
  open.push(connection);
  return connection;
}

const VERSIONS: Record<Era, string> = { legacy: "2025-11-25", modern: "2026-07-28" };

describe("SDK v2 client on mcp-gen serve (stdio)", () => {
  const serve = ["serve", "smart-home"];

  it('speaks the 2025 protocol when asked for "legacy", and the typed client unwraps { result }', async () => {
    const connection = await connect([BIN, ...serve], "legacy");
    expect([connection.era, connection.protocolVersion]).toStrictEqual(["legacy", "2025-11-25"]);
    const found = await createSmartHomeClient(connection.client).searchDevices({ query: "客厅 灯" });
    expect(found.ok && found.raw.structuredContent).toMatchObject({ result: [{ fullId: "uuid-abc123" }] });
    expect(expectOk(found).map((d) => d.fullId)).toStrictEqual(["uuid-abc123"]);
  });

  it('negotiates 2026-07-28 with "auto" (the default)', async () => {
    const connection = await connect([BIN, ...serve], "auto");
    expect([connection.era, connection.protocolVersion]).toStrictEqual(["modern", "2026-07-28"]);
    const found = await createSmartHomeClient(connection.client).searchDevices({ query: "客厅 灯" });
    expect(expectOk(found).map((d) => d.fullId)).toStrictEqual(["uuid-abc123"]);
  });
});

describe("SDK v2 client on an SDK v2 server serving both eras (stdio)", () => {
  const server = ["--import", "tsx", ERA_STDIO];

  it('probes with "auto" in the server process itself: the server starts once', async () => {
    const starts = path.join(mkdtempSync(path.join(tmpdir(), "mcp-gen-starts-")), "starts.txt");
    const connection = await connectStdio(
      {
        command: process.execPath,
        args: server,
        cwd: ROOT,
        stderr: "ignore",
        env: { ...process.env, ERA_STARTS: starts } as Record<string, string>,
      },
      { protocol: "auto" },
    );
    open.push(connection);
    expect(connection.era).toBe("modern");
    expect(readFileSync(starts, "utf8").trim().split("\n")).toStrictEqual([String(connection.pid)]);
  });

  it.each([
    ["legacy", "legacy"],
    ["2026-07-28", "modern"],
    ["auto", "modern"],
  ] as const)("%s: gets the %s form of a wrapped result, and the typed client returns the value", async (protocol, era) => {
    const connection = await connect(server, protocol);
    expect([connection.era, connection.protocolVersion]).toStrictEqual([era, VERSIONS[era]]);
    const found = await createSmartHomeClient(connection.client).searchDevices({ query: "x" });
    expect(found.ok && found.raw.structuredContent).toStrictEqual(
      era === "modern" ? DEVICES : { result: DEVICES },
    );
    expect(expectOk(found)).toStrictEqual(DEVICES);
  });

  it("hands the server's stderr to onStderr and tells its pid", async () => {
    let stderr = "";
    const connection = await connect(server, "legacy", { onStderr: (text) => (stderr += text) });
    expect(connection.pid).toBeTypeOf("number");
    await expect.poll(() => stderr).toBe("era server up\n");
  });
});

describe("connectStdio failures", () => {
  it("rejects when the server exits before answering, and onStderr has what it said", async () => {
    let stderr = "";
    const exiting = ["-e", 'process.stderr.write("no database\\n"); process.exit(3)'];
    const failed = await connect(exiting, "legacy", { onStderr: (text) => (stderr += text) }).catch(
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(SdkError);
    expect((failed as SdkError).code).toBe(SdkErrorCode.ConnectionClosed);
    expect(stderr).toBe("no database\n");
  });
});

describe("SDK v2 client on an SDK v1 server (server-memory: 2025 protocol only)", () => {
  const server = { command: process.execPath, args: [MEMORY_SERVER], stderr: "ignore" as const };
  const env = { MEMORY_FILE_PATH: path.join(tmpdir(), `mcp-gen-memory-${process.pid}.jsonl`) };

  it('falls back to the 2025 handshake with "auto"', async () => {
    const connection = await connectStdio({ ...server, env }, { protocol: "auto" });
    open.push(connection);
    expect([connection.era, connection.protocolVersion]).toStrictEqual(["legacy", "2025-11-25"]);
    expect((await connection.client.listTools()).tools.map((t) => t.name)).toContain("read_graph");
  });

  it('rejects "2026-07-28" with the SDK negotiation error', async () => {
    const failed = await connectStdio({ ...server, env }, { protocol: "2026-07-28" }).catch(
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(SdkError);
    expect((failed as SdkError).code).toBe(SdkErrorCode.EraNegotiationFailed);
    expect((failed as Error).message).toContain("did not offer pinned protocol version 2026-07-28");
  });
});
