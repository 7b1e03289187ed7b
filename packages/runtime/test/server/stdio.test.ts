import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type BuiltProbe, buildProbe } from "./support/probe.ts";
import { transportSuite } from "./support/transport-suite.ts";

const BIN = path.join(import.meta.dirname, "../../../codegen/bin/mcp-gen.js");

let probe: BuiltProbe;
beforeAll(async () => {
  probe = await buildProbe();
});
afterAll(() => probe.dispose());

const clients: Client[] = [];
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

describe("mcp-gen serve over stdio", () => {
  transportSuite(() => ({ probe, connect: () => connect() }));

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
