import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioClientTransportV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { ERAS, type Era, exercise } from "./support/catalog.ts";

/** Real child processes: the catalog manifest served over stdio by the compiled runtime (`tsc -b` first). */
const SERVER = {
  command: process.execPath,
  args: ["--import", "tsx", path.join(import.meta.dirname, "fixtures", "catalog", "server.ts")],
  stderr: "pipe" as const,
};

const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

async function connect(era: Era, elicit = false): Promise<Client> {
  const client = new Client(
    { name: "catalog-stdio", version: "1.0.0" },
    {
      versionNegotiation: { mode: era === "legacy" ? "legacy" : { pin: era } },
      capabilities: elicit ? { elicitation: { form: {} } } : {},
    },
  );
  if (elicit)
    client.setRequestHandler("elicitation/create", () => ({
      action: "accept",
      content: { context: "stdio" },
    }));
  await client.connect(new StdioClientTransport(SERVER));
  clients.push(client);
  return client;
}

/** Resolves with the URI of the next `notifications/resources/updated`. */
function nextUpdate(client: Client): Promise<string> {
  return new Promise((resolve) => {
    client.setNotificationHandler("notifications/resources/updated", (n) => resolve(n.params.uri));
  });
}

describe.each(ERAS)("a %s SDK v2 client over stdio", (era) => {
  it("reads resources, gets prompts and completes arguments", async () => {
    await exercise(await connect(era));
  });

  it("asks the user for a prompt through the client", async () => {
    const client = await connect(era, true);
    expect((await client.getPrompt({ name: "test_input_required_result_prompt" })).messages).toStrictEqual([
      { role: "user", content: { type: "text", text: "Use this context: stdio" } },
    ]);
  });

  it("hears of the updates of a resource it subscribed to", async () => {
    const client = await connect(era);
    const updated = nextUpdate(client);
    if (era === "legacy") await client.subscribeResource({ uri: "test://settings" });
    else clients.unshift(await client.listen({ resourceSubscriptions: ["test://settings"] }));
    await client.callTool({ name: "touch", arguments: { uri: "test://csv" } }); // nobody subscribed
    await client.callTool({ name: "touch", arguments: { uri: "test://settings" } });
    expect(await updated).toBe("test://settings");
  });
});

describe("the SDK v1 client over stdio", () => {
  it("reads, gets, completes and hears of subscribed resources", async () => {
    const client = new ClientV1({ name: "v1", version: "1" });
    await client.connect(new StdioClientTransportV1(SERVER));
    clients.push(client);
    await exercise(client as never);
    const updated = new Promise<string>((resolve) => {
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri));
    });
    await client.subscribeResource({ uri: "test://settings" });
    await client.callTool({ name: "touch", arguments: { uri: "test://settings" } });
    expect(await updated).toBe("test://settings");
  });
});
