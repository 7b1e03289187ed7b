import { type Connection, connectInMemory, expectOk, ToolCallError } from "@mcp-gen/runtime/client";
import { ValidationError } from "@mcp-gen/runtime/validation";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createEconomicsClient } from "../../../../generated/economics/client.ts";
import { manifest as economicsManifest } from "../../../../generated/economics/server.ts";
import { createSmartHomeClient } from "../../../../generated/smart-home/client.ts";
import { manifest as smartHomeManifest } from "../../../../generated/smart-home/server.ts";
import { recordingServer } from "./recording-server.ts";

const open: Connection[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

async function connect(server: Server): Promise<Connection> {
  const connection = await connectInMemory(server);
  open.push(connection);
  return connection;
}

/** A server whose `search_devices` answers with whatever `reply` returns. */
function fakeSmartHome(reply: () => object): Server {
  const server = new Server({ name: "fake", version: "0.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(CallToolRequestSchema, () => reply() as never);
  return server;
}

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

  it("throws when the structured result breaks the output schema, unless result validation is off", async () => {
    const server = () => fakeSmartHome(() => ({ content: [], structuredContent: { result: [{ id: 1 }] } }));
    const strict = createSmartHomeClient((await connect(server())).client);
    await expect(strict.searchDevices({ query: "x" })).rejects.toThrow(
      /Invalid result of tool "search_devices"/,
    );
    const lax = createSmartHomeClient((await connect(server())).client, { validateResults: false });
    expect(expectOk(await lax.searchDevices({ query: "x" }))).toStrictEqual([{ id: 1 }]);
  });

  it("reads the result from a JSON text block when the server sends no structuredContent", async () => {
    const devices = [{ id: "a", fullId: "b", name: "c", room: "d", type: "e", capabilities: [] }];
    const home = createSmartHomeClient(
      (await connect(fakeSmartHome(() => ({ content: [{ type: "text", text: JSON.stringify(devices) }] }))))
        .client,
    );
    expect(expectOk(await home.searchDevices({ query: "x" }))).toStrictEqual(devices);
  });
});
