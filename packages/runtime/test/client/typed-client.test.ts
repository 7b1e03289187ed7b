import {
  type ConnectableServer,
  type Connection,
  connectInMemory,
  expectOk,
  type McpGenConnectOptions,
  type ProtocolChoice,
  ToolCallError,
  type ToolCallingClient,
} from "@mcp-gen/runtime/client";
import { ValidationError } from "@mcp-gen/runtime/validation";
import { afterEach, describe, expect, it } from "vitest";
import { createEconomicsClient } from "../../../../generated/economics/client.ts";
import { manifest as economicsManifest } from "../../../../generated/economics/server.ts";
import { createSmartHomeClient } from "../../../../generated/smart-home/client.ts";
import { manifest as smartHomeManifest } from "../../../../generated/smart-home/server.ts";
import { DEVICES, type Era, eraServer, wrappedFor } from "./era-server.ts";
import { recordingServer } from "./recording-server.ts";

const open: Connection[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function connect(server: ConnectableServer, options: McpGenConnectOptions = {}): Promise<Connection> {
  const connection = await connectInMemory(server, options);
  open.push(connection);
  return connection;
}

/** Each protocol a client can ask for that ends in a known era, and that era. */
const PINNED: [ProtocolChoice, Era, string][] = [
  ["legacy", "legacy", "2025-11-25"],
  ["2026-07-28", "modern", "2026-07-28"],
];

describe("typed client against the runtime server of the generated manifests (in-memory)", () => {
  it("calls a tool with typed arguments and unwraps a { result } structured result", async () => {
    const { server } = recordingServer(smartHomeManifest);
    const home = createSmartHomeClient((await connect(server)).client);
    const result = await home.searchDevices({ query: "客厅 灯" });
    expect(result.ok).toBe(true);
    expect(expectOk(result).map((d) => d.fullId)).toStrictEqual(["uuid-abc123"]);
  });

  it("returns an object result as is and applies the tool's own defaults", async () => {
    const { server } = recordingServer(smartHomeManifest);
    const home = createSmartHomeClient((await connect(server)).client);
    const result = await home.executeCommands({
      device_id: "uuid-def456",
      commands: [{ component: "main", capability: "switchLevel", command: "setLevel", arguments: [30] }],
    });
    expect(expectOk(result)).toStrictEqual({ status: "ACCEPTED", state: { switch: "off", level: 30 } });
  });

  it("calls a tool whose arguments are all optional without arguments", async () => {
    const { server } = recordingServer(economicsManifest);
    const economics = createEconomicsClient((await connect(server)).client);
    const value = expectOk(await economics.getAllParameters({ category: "tax", format: "markdown" }));
    expect(value.split("\n").slice(0, 2)).toStrictEqual([
      "| name | category | type | default | range | description |",
      "| --- | --- | --- | --- | --- | --- |",
    ]);
    expect(typeof expectOk(await economics.getAllParameters())).toBe("string");
  });

  it("surfaces a tool error (isError) as { ok: false } with its message", async () => {
    const { server } = recordingServer(smartHomeManifest);
    const home = createSmartHomeClient((await connect(server)).client);
    const result = await home.executeCommands({ device_id: "nope", commands: [] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.tool).toBe("execute_commands");
    expect(result.message).toBe('no device with id "nope"; call search_devices first to find its fullId');
    expect(() => expectOk(result)).toThrow(ToolCallError);
  });

  it("rejects invalid arguments before sending them", async () => {
    const { server, calls } = recordingServer(smartHomeManifest);
    const home = createSmartHomeClient((await connect(server)).client);
    const bad = { query: "灯", limit: 500 };
    await expect(home.searchDevices(bad)).rejects.toThrow(ValidationError);
    await expect(home.searchDevices(bad)).rejects.toThrow(
      'Invalid arguments of tool "search_devices": 1 problem\n- /limit: expected a number <= 50, received number 500',
    );
    expect(calls).toStrictEqual([]);
  });

  it("sends invalid arguments when argument validation is off: the server rejects them as a tool error", async () => {
    const { server, calls } = recordingServer(smartHomeManifest);
    const home = createSmartHomeClient((await connect(server)).client, { validateArguments: false });
    const result = await home.searchDevices({ query: "灯", limit: 500 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain("/limit: expected a number <= 50, received number 500");
    expect(calls).toStrictEqual([]);
  });

  it("reports the era it negotiated with the runtime server", async () => {
    const { server } = recordingServer(smartHomeManifest);
    const connection = await connect(server, { protocol: "legacy" });
    expect([connection.era, connection.protocolVersion]).toStrictEqual(["legacy", "2025-11-25"]);
  });
});

describe.each(PINNED)("typed client, protocol %s (SDK v2 server in memory)", (protocol, era, version) => {
  it(`gets the ${era === "modern" ? "bare" : "{ result }"} form of a wrapped result and returns the value`, async () => {
    const server = eraServer((served) => wrappedFor(served, DEVICES));
    const connection = await connect(server, { protocol });
    expect([connection.era, connection.protocolVersion]).toStrictEqual([era, version]);
    const result = await createSmartHomeClient(connection.client).searchDevices({ query: "x" });
    expect(server.eras).toStrictEqual([era]);
    expect(result.ok && result.raw.structuredContent).toStrictEqual(
      era === "modern" ? DEVICES : { result: DEVICES },
    );
    expect(expectOk(result)).toStrictEqual(DEVICES);
  });

  it("throws when the structured result breaks the output schema, unless result validation is off", async () => {
    const server = () => eraServer((served) => wrappedFor(served, [{ id: 1 }]));
    const strict = createSmartHomeClient((await connect(server(), { protocol })).client);
    await expect(strict.searchDevices({ query: "x" })).rejects.toThrow(
      /^Invalid result of tool "search_devices": \d+ problems?\n- \/result\/0/,
    );
    const lax = createSmartHomeClient((await connect(server(), { protocol })).client, {
      validateResults: false,
    });
    expect(expectOk(await lax.searchDevices({ query: "x" }))).toStrictEqual([{ id: 1 }]);
  });

  it("reads the result from a JSON text block when the server sends no structuredContent", async () => {
    const text = eraServer(() => ({ content: [{ type: "text", text: JSON.stringify(DEVICES) }] }));
    const home = createSmartHomeClient((await connect(text, { protocol })).client);
    expect(expectOk(await home.searchDevices({ query: "x" }))).toStrictEqual(DEVICES);
    const lax = createSmartHomeClient((await connect(text, { protocol })).client, { validateResults: false });
    expect(expectOk(await lax.searchDevices({ query: "x" }))).toStrictEqual(DEVICES);
  });

  it("returns an object result as it was sent", async () => {
    const state = { status: "ACCEPTED", state: { switch: "on" } };
    const server = eraServer(() => ({ content: [], structuredContent: state }));
    const home = createSmartHomeClient((await connect(server, { protocol })).client);
    expect(expectOk(await home.executeCommands({ device_id: "d", commands: [] }))).toStrictEqual(state);
  });

  it("accepts either form from a client that does not say its era", async () => {
    const server = eraServer((served) => wrappedFor(served, DEVICES));
    const { client } = await connect(server, { protocol });
    // A hand-written client: callTool only, no getProtocolEra.
    const plain: ToolCallingClient = { callTool: (params, options) => client.callTool(params, options) };
    for (const validateResults of [true, false]) {
      const home = createSmartHomeClient(plain, { validateResults });
      expect(expectOk(await home.searchDevices({ query: "x" }))).toStrictEqual(DEVICES);
    }
    const invalid = eraServer((served) => wrappedFor(served, [{ id: 1 }]));
    const strict = createSmartHomeClient({
      callTool: async (params, options) =>
        (await connect(invalid, { protocol })).client.callTool(params, options),
    });
    await expect(strict.searchDevices({ query: "x" })).rejects.toThrow(
      /^Invalid result of tool "search_devices"/,
    );
  });
});

describe.each(PINNED)("the economics example's resources and prompt, protocol %s", (protocol, era) => {
  it("reads the parameters of a category through the typed client, typed and validated", async () => {
    const { server } = recordingServer(economicsManifest);
    const connection = await connect(server, { protocol });
    expect(connection.era).toBe(era);
    expect(connection.client.getServerVersion()).toMatchObject({
      name: "economics",
      title: "AI-economist simulation parameters",
      version: "1.0.0",
    });
    const economics = createEconomicsClient(connection.client);
    const tax = await economics.resources.parametersOfCategory({ category: "tax" });
    expect(Object.keys(tax)).toStrictEqual(["income_tax_rate", "progressive_tax", "ubi_amount"]);
    expect(tax.income_tax_rate).toStrictEqual({
      name: "income_tax_rate",
      category: "tax",
      description: "Flat income tax rate",
      type: "float",
      default: 0.2,
      range: [0, 1],
    });
    await expect(economics.resources.parametersOfCategory({ category: "weather" as "tax" })).rejects.toThrow(
      /category/,
    );
    const { resourceTemplates } = await connection.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toStrictEqual(["economics://parameters/{category}"]);
    const completion = await connection.client.complete({
      ref: { type: "ref/resource", uri: "economics://parameters/{category}" },
      argument: { name: "category", value: "ma" },
    });
    expect(completion.completion.values).toStrictEqual(["market"]);
  });

  it("gets the analyze-this-question prompt with the question and the parameter catalogue", async () => {
    const { server } = recordingServer(economicsManifest);
    const economics = createEconomicsClient((await connect(server, { protocol })).client);
    const messages = await economics.prompts.analyzeThisQuestion({ question: "Will AI reshape labor?" });
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message?.role).toBe("user");
    const text = message?.content.type === "text" ? message.content.text : "";
    expect(text.split("\n")[0]).toBe("Research question: Will AI reshape labor?");
    expect(text).toContain("- income_tax_rate (tax): Flat income tax rate");
  });
});
