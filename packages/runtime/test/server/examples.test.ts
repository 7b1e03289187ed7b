import { readFileSync } from "node:fs";
import path from "node:path";
import { type ServerManifest, serve } from "@mcp-gen/runtime/server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it } from "vitest";
import { manifest as conformance } from "../../../../generated/conformance/server.ts";
import { manifest as economics } from "../../../../generated/economics/server.ts";
import { manifest as smartHome } from "../../../../generated/smart-home/server.ts";
import { listedTools } from "./support/probe.ts";

const ROOT = path.join(import.meta.dirname, "../../../..");
const contractTools = (server: string) =>
  listedTools(JSON.parse(readFileSync(path.join(ROOT, "schemas", `${server}.tools.json`), "utf8")));

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

async function connect(manifest: ServerManifest): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  open.push(await serve(manifest, { transport: serverSide }));
  const client = new Client({ name: "examples", version: "1.0.0" });
  await client.connect(clientSide);
  open.push(client);
  return client;
}

describe.each([
  ["smart-home", smartHome],
  ["economics", economics],
  ["conformance", conformance],
])("the generated %s server", (name, manifest) => {
  it("lists the tools of its contract", async () => {
    const client = await connect(manifest);
    expect((await client.listTools()).tools).toStrictEqual(contractTools(name));
  });
});

describe("the example servers", () => {
  it("find the living-room light and switch it", async () => {
    const client = await connect(smartHome);
    const found = await client.callTool({
      name: "search_devices",
      arguments: { query: "客厅 灯", limit: 1 },
    });
    const [light] = (found.structuredContent as { result: { fullId: string; capabilities: string[] }[] })
      .result;
    expect(light?.capabilities).toContain("switch");
    const done = await client.callTool({
      name: "execute_commands",
      arguments: {
        device_id: light!.fullId,
        commands: [{ component: "main", capability: "switch", command: "on" }],
      },
    });
    expect((done.structuredContent as { status: string; state: { switch: string } }).status).toBe("ACCEPTED");
  });

  it("send a string result as its own text", async () => {
    const client = await connect(economics);
    const result = await client.callTool({
      name: "get_all_parameters",
      arguments: { category: "tax", format: "markdown" },
    });
    const markdown = (result.structuredContent as { result: string }).result;
    expect(markdown.startsWith("| name | category |")).toBe(true);
    expect(result.content).toStrictEqual([{ type: "text", text: markdown }]);
  });
});
