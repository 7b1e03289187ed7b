import path from "node:path";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioClientTransportV2 } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type BuiltProbe, buildProbe } from "./support/probe.ts";
import {
  type ClientKind,
  connectClient,
  type SuiteClient,
  transportSuite,
} from "./support/transport-suite.ts";

const BIN = path.join(import.meta.dirname, "../../../codegen/bin/mcp-gen.js");

let probe: BuiltProbe;
beforeAll(async () => {
  probe = await buildProbe();
});
afterAll(() => probe.dispose());

const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

/** A client talking to `mcp-gen serve probe` in a child process, the way desktop clients launch servers. */
async function connect(extraArgs: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "serve", "probe", "--config", probe.configFile, ...extraArgs],
    env: { ...(process.env as Record<string, string>), PROBE_STEP: "1" },
    stderr: "pipe",
  });
  const client = new Client({ name: "stdio-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** A client of `kind` launching `mcp-gen serve probe` as desktop clients do. */
async function connectKind(
  kind: ClientKind,
  elicit?: (message: string) => Record<string, unknown>,
): Promise<SuiteClient> {
  const parameters = {
    command: process.execPath,
    args: [BIN, "serve", "probe", "--config", probe.configFile],
    env: { ...(process.env as Record<string, string>), PROBE_STEP: "1" },
    stderr: "pipe" as const,
  };
  const client = await connectClient(
    kind,
    (sdk) => (sdk === "v1" ? new StdioClientTransport(parameters) : new StdioClientTransportV2(parameters)),
    elicit,
  );
  clients.push(client);
  return client;
}

describe("mcp-gen serve over stdio", () => {
  transportSuite(() => ({ probe, connect: connectKind }), { transport: "stdio" });

  it("lets 2026-07-28 clients cache tools/list for --list-ttl, publicly with --list-cache-public", async () => {
    const client = new ClientV2(
      { name: "cache", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(
      new StdioClientTransportV2({
        command: process.execPath,
        args: [
          BIN,
          "serve",
          "probe",
          "--config",
          probe.configFile,
          "--list-ttl",
          "60000",
          "--list-cache-public",
        ],
        stderr: "pipe",
      }),
    );
    clients.push(client);
    const page = (await client.request({ method: "tools/list", params: {} })) as Record<string, unknown>;
    expect([page.ttlMs, page.cacheScope]).toStrictEqual([60_000, "public"]);
  });

  it("applies --timeout and --mask-errors", async () => {
    const client = await connect(["--timeout", "1", "--mask-errors"]);
    expect(await client.callTool({ name: "wait_for_cancel", arguments: {} })).toStrictEqual({
      content: [{ type: "text", text: 'Tool "wait_for_cancel" timed out after 1 ms' }],
      isError: true,
    });
    expect(await client.callTool({ name: "crash", arguments: { message: "/etc/secret" } })).toStrictEqual({
      content: [{ type: "text", text: 'Tool "crash" failed with an internal error.' }],
      isError: true,
    });
  });
});
