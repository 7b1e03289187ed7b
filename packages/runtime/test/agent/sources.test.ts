import { mkdtempSync, rmSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { AgentError, createAgent, localTools, mcpTools, portableToolName } from "@mcp-gen/runtime/agent";
import { connectInMemory } from "@mcp-gen/runtime/client";
import { createServer } from "@mcp-gen/runtime/server";
import { convertContract } from "@mcp-gen/schema";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { manifest as economics } from "../../../../generated/economics/server.ts";
import { providerTools as smartHomeProviders } from "../../../../generated/smart-home/providers/index.ts";
import { type ScriptedModel, startScriptedModel } from "../../src/testing/index.ts";
import { collect, modelFor, recording, smartHome, testManifest, testTool } from "./support.ts";

/**
 * A server served statelessly over Streamable HTTP with SDK v1's server transport: a 2025-only
 * server, as most in the field are (the agent's `"auto"` probe is refused, then it initializes).
 */
async function serveOverHttp(
  build: () => { connect(transport: StreamableHTTPServerTransport): Promise<void> },
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createHttpServer(async (req, res) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void transport.close());
    await build().connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const MEMORY_SERVER = path.resolve(
  import.meta.dirname,
  "../../../../node_modules/@modelcontextprotocol/server-memory/dist/index.js",
);

let scripted: ScriptedModel | undefined;
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
  for (const c of cleanup.splice(0)) await c();
});

describe("aggregation (seed 002)", () => {
  it("offers an in-process manifest and a real stdio MCP server side by side, namespaced", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcp-gen-agent-"));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const memory = mcpTools({
      name: "memory",
      stdio: {
        command: process.execPath,
        args: [MEMORY_SERVER],
        env: { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") },
        stderr: "pipe",
      },
    });
    scripted = await startScriptedModel({
      script: [
        {
          toolCalls: [
            { name: "smart-home__search_devices", arguments: { query: "客厅 灯" } },
            // invalid for the memory server's own schema: checked here, never sent
            { name: "memory__create_entities", arguments: { entities: [{ name: "客厅吸顶灯" }] } },
          ],
        },
        {
          toolCalls: [
            {
              name: "memory__create_entities",
              arguments: {
                entities: [{ name: "客厅吸顶灯", entityType: "device", observations: ["uuid-abc123"] }],
              },
            },
          ],
        },
        { toolCalls: [{ name: "memory__read_graph", arguments: {} }] },
        { text: "记住了" },
      ],
    });
    const home = smartHome();
    const agent = createAgent({ model: modelFor("anthropic", scripted), tools: [home.manifest, memory] });
    cleanup.push(() => agent.close());
    const { result } = await collect(agent.run("记住客厅的灯"));

    expect(result.text).toBe("记住了");
    expect(scripted.rejected).toStrictEqual([]);
    const offered = scripted.requests[0]!.tools;
    expect(offered.slice(0, 3)).toStrictEqual([
      "smart-home__execute_commands",
      "smart-home__interpret_command",
      "smart-home__search_devices",
    ]);
    expect(offered).toContain("memory__create_entities");
    expect(offered).toContain("memory__read_graph");
    const [found, invalid] = scripted.requests[1]!.toolResults;
    expect(JSON.parse(found!.content).result[0].fullId).toBe("uuid-abc123");
    expect(invalid!.isError).toBe(true);
    expect(invalid!.content).toContain('Invalid arguments of tool "create_entities"');
    expect(invalid!.content).toContain(
      "/entities/0/entityType: expected this required property, received nothing",
    );
    // Only the valid call reached the server: the graph holds exactly one entity.
    const graph = JSON.parse(scripted.requests[3]!.toolResults[0]!.content);
    expect(graph.entities).toStrictEqual([
      { name: "客厅吸顶灯", entityType: "device", observations: ["uuid-abc123"] },
    ]);
  });

  it("reaches an MCP server over Streamable HTTP", async () => {
    // The probe's 2026-07-28 request is refused by the v1 transport: a protocol error to the server.
    const http = await serveOverHttp(() => createServer(economics, { onError: () => {} }));
    cleanup.push(() => http.close());
    scripted = await startScriptedModel({
      script: [
        {
          toolCalls: [
            { name: "economics__get_all_parameters", arguments: { category: "tax", format: "markdown" } },
          ],
        },
        (r) => ({ text: r.toolResults[0]!.content.split("\n")[0]! }),
      ],
    });
    const home = smartHome();
    const agent = createAgent({
      model: modelFor("openai", scripted),
      tools: [home.manifest, mcpTools({ name: "economics", url: http.url })],
    });
    cleanup.push(() => agent.close());
    const { result } = await collect(agent.run("税收参数?"));
    expect(result.text).toBe("| name | category | type | default | range | description |");
    expect(scripted.requests[0]!.tools).toContain("economics__analyze_question");
  });

  it("reads a draft-07 schema as pull does: definitions are followed for validation and for the model", async () => {
    const received: unknown[] = [];
    const server = new Server({ name: "tags", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: "tag",
          inputSchema: {
            $schema: "http://json-schema.org/draft-07/schema#",
            type: "object",
            definitions: { label: { type: "string", minLength: 1 } },
            properties: { label: { $ref: "#/definitions/label" } },
            required: ["label"],
          },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      received.push(request.params.arguments);
      return { content: [{ type: "text", text: "tagged" }] };
    });
    const connection = await connectInMemory(server);
    cleanup.push(() => connection.close());
    scripted = await startScriptedModel({
      script: [
        { toolCalls: [{ name: "tag", arguments: { label: "" } }] },
        { toolCalls: [{ name: "tag", arguments: { label: "urgent" } }] },
        { text: "done" },
      ],
    });
    const agent = createAgent({
      model: modelFor("anthropic", scripted),
      tools: [mcpTools({ name: "tags", client: connection.client })],
    });
    await collect(agent.run("tag it"));
    expect(received).toStrictEqual([{ label: "urgent" }]);
    expect(scripted.requests[1]!.toolResults[0]!.content).toContain(
      '- /label: expected a string of at least 1 character, received string ""',
    );
    expect(scripted.requests[0]!.body.tools[0].input_schema).toStrictEqual({
      type: "object",
      properties: { label: { type: "string", minLength: 1 } },
      required: ["label"],
    });
  });

  it("checks structured results with its own compiler, and reports timeouts and protocol errors", async () => {
    const foreign = () => {
      const server = new Server({ name: "foreign", version: "1.0.0" }, { capabilities: { tools: {} } });
      server.setRequestHandler(ListToolsRequestSchema, () => ({
        tools: [
          {
            name: "count",
            inputSchema: { type: "object" },
            // draft-07, as many servers write it: normalised before it is compiled
            outputSchema: {
              $schema: "http://json-schema.org/draft-07/schema#",
              type: "object",
              definitions: { total: { type: "integer" } },
              properties: { count: { $ref: "#/definitions/total" } },
              required: ["count"],
            },
          },
          { name: "hang", inputSchema: { type: "object" } },
          { name: "broken", inputSchema: { type: "object" } },
        ],
      }));
      server.setRequestHandler(CallToolRequestSchema, (request) => {
        if (request.params.name === "count") return { content: [], structuredContent: { count: "three" } };
        if (request.params.name === "hang") return new Promise<never>(() => {});
        throw new Error("the disk is full");
      });
      return server;
    };
    const http = await serveOverHttp(foreign);
    cleanup.push(() => http.close());
    scripted = await startScriptedModel({
      script: [
        {
          toolCalls: [
            { name: "count", arguments: {} },
            { name: "hang", arguments: {} },
            { name: "broken", arguments: {} },
          ],
        },
        { text: "done" },
      ],
    });
    const agent = createAgent({
      model: modelFor("anthropic", scripted),
      tools: [mcpTools({ name: "foreign", url: http.url })],
      toolTimeoutsMs: { hang: 300 },
    });
    cleanup.push(() => agent.close());
    const { result } = await collect(agent.run("count"));
    expect(result.text).toBe("done");
    expect(scripted.requests[1]!.toolResults.map((r) => r.content)).toStrictEqual([
      'Tool "count" failed: MCP error -32602: Structured content does not match the tool\'s output schema: Invalid result of tool "count": 1 problem\n- /count: expected an integer, received string "three"',
      'Tool "hang" timed out after 300 ms',
      'Tool "broken" failed: MCP error -32603: the disk is full',
    ]);
  });

  it("uses the generated provider definitions of a local manifest", async () => {
    scripted = await startScriptedModel({ script: [{ text: "hi" }] });
    const home = smartHome();
    const agent = createAgent({
      model: modelFor("anthropic", scripted),
      tools: [localTools({ manifest: home.manifest, providers: smartHomeProviders })],
    });
    await collect(agent.run("hi"));
    expect(scripted.requests[0]!.body.tools).toStrictEqual(smartHomeProviders.anthropic);
  });

  it("reports names that collide after namespacing, naming both tools", async () => {
    scripted = await startScriptedModel();
    const noop = () => ({});
    const agent = createAgent({
      model: modelFor("anthropic", scripted),
      tools: [
        testManifest("a", [testTool({ name: "b__c", invoke: noop })]),
        testManifest("a__b", [testTool({ name: "c", invoke: noop })]),
      ],
    });
    await expect(agent.tools()).rejects.toThrow(
      new AgentError(
        "tool-collision",
        'tool names collide: "a/b__c" and "a__b/c" are both offered as "a__b__c". Give the sources other names, or use namespace: "always".',
      ),
    );
  });

  it.each([
    "anthropic",
    "openai",
  ] as const)("runs a tool whose name %s rejects, offered under the name the build gives it", async (provider) => {
    const call = { toolCalls: [{ name: "read_file", arguments: { path: "a.txt" } }] };
    scripted = await startScriptedModel({ script: [call, { text: "read" }, call, { text: "read" }] });
    const calls: unknown[] = [];
    const read = testTool({
      name: "read.file",
      properties: { path: { type: "string" } },
      required: ["path"],
      invoke: (args) => {
        calls.push(args);
        return { text: "hello" };
      },
    });
    const manifest = testManifest("files", [read]);
    // As `mcp-gen build` emits them: the definitions carry the renamed name.
    const built = convertContract({ server: "files", tools: [read.definition] as never }, [provider]);
    expect(built.renamed.map((r) => r.name)).toContain("read_file");
    for (const providers of [undefined, built.definitions]) {
      const agent = createAgent({
        model: modelFor(provider, scripted),
        tools: [localTools({ manifest, ...(providers ? { providers } : {}) })],
      });
      const { text } = await agent.chat("read a.txt");
      expect(text).toBe("read");
    }
    // Generated definitions and the run-time conversion agree on the name.
    expect(scripted.requests.map((r) => r.tools)).toStrictEqual([
      ["read_file"],
      ["read_file"],
      ["read_file"],
      ["read_file"],
    ]);
    expect(calls).toStrictEqual([{ path: "a.txt" }, { path: "a.txt" }]);
  });

  it("makes names provider-safe", () => {
    expect(portableToolName("files.v2__read.text")).toBe("files_v2__read_text");
    const long = portableToolName(`${"x".repeat(70)}`);
    expect(long).toHaveLength(64);
    expect(long).not.toBe(portableToolName(`${"x".repeat(71)}`));
  });

  it("leaves out a tool the model's dialect cannot express, with a warning", async () => {
    scripted = await startScriptedModel({ script: [{ text: "ok" }] });
    const tree = testTool({ name: "walk", invoke: () => ({}) });
    // Anthropic rejects property names outside letters, digits, "_", "." and "-".
    const recursive = {
      ...tree,
      definition: {
        ...tree.definition,
        inputSchema: { type: "object" as const, properties: { "first name": { type: "string" } } },
      },
    };
    const agent = createAgent({
      model: modelFor("anthropic", scripted),
      tools: [testManifest("trees", [recursive, testTool({ name: "plain", invoke: () => ({}) })])],
    });
    const { events } = await collect(agent.run("go"));
    expect(scripted.requests[0]!.tools).toStrictEqual(["plain"]);
    expect(events.filter((e) => e.type === "warning")).toStrictEqual([
      {
        type: "warning",
        message: expect.stringMatching(
          /^tool "walk" is not offered to anthropic: property name "first name" .*\(anthropic\/property-name\)$/,
        ),
      },
    ]);
  });
});

describe("router mode (seed 002's mcp_query)", () => {
  it("offers one tool listing every resource and operation, and validates params against the operation", async () => {
    scripted = await startScriptedModel({
      script: [
        {
          toolCalls: [
            {
              name: "mcp_query",
              arguments: { resource: "smart-home", operation: "search_devices", params: { query: 1 } },
            },
          ],
        },
        {
          toolCalls: [
            { name: "mcp_query", arguments: { resource: "smart-home", operation: "find", params: {} } },
          ],
        },
        {
          toolCalls: [
            {
              name: "mcp_query",
              arguments: {
                resource: "smart-home",
                operation: "search_devices",
                params: { query: "客厅 灯" },
              },
            },
          ],
        },
        { text: "客厅吸顶灯" },
      ],
    });
    const home = smartHome();
    const econ = recording(economics);
    const agent = createAgent({
      model: modelFor("openai", scripted),
      tools: [home.manifest, econ.manifest],
      router: true,
    });
    const { result } = await collect(agent.run("客厅有灯吗"));

    expect(result.text).toBe("客厅吸顶灯");
    expect(scripted.requests[0]!.tools).toStrictEqual(["mcp_query"]);
    const description: string = scripted.requests[0]!.body.tools[0].function.description;
    expect(description).toContain("- Resource 'smart-home'");
    expect(description).toContain(
      "  - Operation 'search_devices': Search devices by natural-language query, e.g. \"客厅 灯\" (room and device type). Parameters: query (string, required), limit (integer).",
    );
    expect(description).toContain("- Resource 'economics'");
    expect(scripted.requests[1]!.toolResults[0]!.content).toBe(
      'Error: In "params" of smart-home/search_devices: Invalid arguments of tool "search_devices": 1 problem\n- /query: expected a string, received number 1\nThe tool was not run. Correct the call and send it again (2 retries left).',
    );
    expect(scripted.requests[2]!.toolResults[0]!.content).toBe(
      'Error: Resource "smart-home" has no operation "find". Its operations: execute_commands, interpret_command, search_devices.\nThe tool was not run. Correct the call and send it again (2 retries left).',
    );
    expect(home.calls).toStrictEqual([{ tool: "search_devices", args: { query: "客厅 灯" } }]);
    expect(econ.calls).toStrictEqual([]);
  });
});
