import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type Connection, connectStdio } from "@mcp-gen/runtime/client";
import { ValidationError } from "@mcp-gen/runtime/validation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.ts";
import { REPO_ROOT, tempProject } from "../support/project.ts";

/**
 * `mcp-gen pull` against real third-party servers from npm (server-memory, server-filesystem,
 * server-everything), each started over stdio: pull into a temporary project, build, type-check
 * the generated clients with tsc, and call tools through them end to end.
 */
const SERVERS = path.join(REPO_ROOT, "node_modules/@modelcontextprotocol");
const MEMORY = path.join(SERVERS, "server-memory/dist/index.js");
const FILESYSTEM = path.join(SERVERS, "server-filesystem/dist/index.js");
const EVERYTHING = path.join(SERVERS, "server-everything/dist/index.js");
const TSC = path.join(REPO_ROOT, "node_modules/typescript/bin/tsc");

let dir: string;
let files: string;
/** What the servers need beyond the defaults (the memory server's file), and the CLI's whole environment. */
let env: Record<string, string>;
let cliEnv: NodeJS.ProcessEnv;
const pulls: Record<string, Awaited<ReturnType<typeof runCli>>> = {};
const node = process.execPath;

beforeAll(async () => {
  dir = tempProject({
    "mcp-gen.config.json": '{ "servers": {} }\n',
    "package.json": '{ "type": "module", "private": true }\n',
  });
  files = path.join(dir, "files");
  mkdirSync(files);
  env = { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") };
  cliEnv = { ...process.env, ...env };
  pulls.memory = await runCli(["pull", "memory", "--", node, MEMORY], dir, cliEnv);
  pulls.files = await runCli(["pull", "files", "--", node, FILESYSTEM, files], dir, cliEnv);
  pulls.everything = await runCli(["pull", "everything", "--", node, EVERYTHING, "stdio"], dir, cliEnv);
});

const read = (file: string) => readFileSync(path.join(dir, file), "utf8");

describe("pull from third-party servers over stdio", () => {
  it("writes one contract per server", () => {
    expect(pulls.memory).toMatchObject({
      code: 0,
      stdout:
        "✓ memory: 9 tools, 1 resource over MCP 2025-11-25 → schemas/memory.tools.json\n  next: npx mcp-gen build\n",
    });
    expect(pulls.files).toMatchObject({
      code: 0,
      stdout: "✓ files: 14 tools over MCP 2025-11-25 → schemas/files.tools.json\n  next: npx mcp-gen build\n",
    });
    expect(pulls.everything?.code).toBe(0);
    const contract = JSON.parse(read("schemas/memory.tools.json"));
    expect(contract.tools.map((t: { name: string }) => t.name)).toStrictEqual([
      "add_observations",
      "create_entities",
      "create_relations",
      "delete_entities",
      "delete_observations",
      "delete_relations",
      "open_nodes",
      "read_graph",
      "search_nodes",
    ]);
    expect(contract["x-mcp-gen"]).toStrictEqual({ pulledFrom: { command: [node, MEMORY] }, tools: {} });
    expect(read("schemas/memory.tools.json")).not.toContain("$schema");
  });

  it("records the resources, resource templates and prompts of server-everything", () => {
    expect(pulls.everything?.stdout).toContain(
      "✓ everything: 13 tools, 7 resources, 2 resource templates, 4 prompts over MCP 2025-11-25 → schemas/everything.tools.json\n",
    );
    const contract = JSON.parse(read("schemas/everything.tools.json"));
    expect(contract.resources.map((r: { name: string }) => r.name)).toStrictEqual([
      "architecture.md",
      "extension.md",
      "features.md",
      "how-it-works.md",
      "instructions.md",
      "startup.md",
      "structure.md",
    ]);
    expect(contract.resources[0]).toStrictEqual({
      uri: "demo://resource/static/document/architecture.md",
      name: "architecture.md",
      description: "Static document file exposed from /docs: architecture.md",
      mimeType: "text/markdown",
    });
    expect(contract.resourceTemplates).toStrictEqual([
      expect.objectContaining({
        uriTemplate: "demo://resource/dynamic/blob/{resourceId}",
        name: "Dynamic Blob Resource",
      }),
      expect.objectContaining({
        uriTemplate: "demo://resource/dynamic/text/{resourceId}",
        name: "Dynamic Text Resource",
        mimeType: "text/plain",
      }),
    ]);
    expect(contract.prompts.map((p: { name: string }) => p.name)).toStrictEqual([
      "args-prompt",
      "completable-prompt",
      "resource-prompt",
      "simple-prompt",
    ]);
    expect(contract.prompts[0].arguments).toStrictEqual([
      { name: "city", description: "Name of the city", required: true },
      { name: "state" },
    ]);
  });

  it("warns that a task-only tool must be called with .task() of the typed client", () => {
    expect(pulls.everything?.stderr).toContain(
      'warning MCPG123: tool "simulate-research-query" only runs as an MCP task: its typed client method fails, its .task() works\n' +
        "  at schemas/everything.tools.json /tools/9/execution/taskSupport",
    );
  });

  it("changes no byte when an unchanged server is pulled again, from the recorded command", async () => {
    const before = read("schemas/memory.tools.json");
    const again = await runCli(["pull", "memory"], dir, cliEnv);
    expect(again).toMatchObject({
      code: 0,
      stdout:
        "mcp-gen: schemas/memory.tools.json is up to date (9 tools, 1 resource over MCP 2025-11-25), nothing written\n",
    });
    expect(read("schemas/memory.tools.json")).toBe(before);
    const check = await runCli(["pull", "files", "--check"], dir, cliEnv);
    expect(check).toMatchObject({
      code: 0,
      stdout: "mcp-gen: schemas/files.tools.json matches the live server (14 tools over MCP 2025-11-25)\n",
    });
  });
});

describe("the build of pulled contracts", () => {
  let build: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    build = await runCli(["build"], dir);
  });

  it("emits every artifact without warnings", () => {
    expect(build.stderr).toBe("");
    expect(build.code).toBe(0);
    expect(build.stdout).toContain(
      "✓ everything: 13 tools, 7 resources, 2 resource templates, 4 prompts (from contract)\n✓ files: 14 tools (from contract)\n✓ memory: 9 tools, 1 resource (from contract)\n",
    );
    expect(read("generated/everything/client.ts")).toContain(
      "getStructuredContent(args: T.GetStructuredContentInput, options?: CallOptions): Promise<ToolCallResult<T.GetStructuredContentOutput>>;",
    );
  });

  it("type-checks the generated clients and code using them with tsc", async () => {
    writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        extends: path.join(REPO_ROOT, "tsconfig.base.json"),
        include: ["generated", "usage.ts"],
      }),
    );
    writeFileSync(path.join(dir, "usage.ts"), USAGE);
    const result = await exec(node, [TSC, "-p", "tsconfig.json"], dir);
    expect(result).toStrictEqual({ code: 0, output: "" });
  });

  describe("typed clients against the live servers", () => {
    const connections: Connection[] = [];
    const connect = async (args: string[]) => {
      const connection = await connectStdio({ command: node, args, env, stderr: "ignore" });
      connections.push(connection);
      return connection.client;
    };
    const load = async (server: string) =>
      import(pathToFileURL(path.join(dir, `generated/${server}/client.ts`)).href);
    afterAll(async () => {
      for (const c of connections) await c.close();
    });

    it("memory: create_entities, then read_graph; a bad call is a typed failure", async () => {
      const { createMemoryClient } = await load("memory");
      const memory = createMemoryClient(await connect([MEMORY]));
      const entity = { name: "Ada", entityType: "person", observations: ["wrote the first program"] };
      const created = await memory.createEntities({ entities: [entity] });
      expect(created).toMatchObject({ ok: true, value: { entities: [entity] } });
      const graph = await memory.readGraph();
      expect(graph).toMatchObject({ ok: true, value: { entities: [entity], relations: [] } });
      const bad = await memory.addObservations({ observations: [{ entityName: "Nobody", contents: ["x"] }] });
      expect(bad).toMatchObject({
        ok: false,
        tool: "add_observations",
        message: "Entity with name Nobody not found",
      });
    });

    it("filesystem: write_file, list_directory, read_text_file; outside the root is a typed failure", async () => {
      const { createFilesClient } = await load("files");
      const fs = createFilesClient(await connect([FILESYSTEM, files]));
      const file = path.join(files, "note.txt");
      expect(await fs.writeFile({ path: file, content: "hello" })).toMatchObject({
        ok: true,
        value: { content: `Successfully wrote to ${file}` },
      });
      expect(await fs.listDirectory({ path: files })).toMatchObject({
        ok: true,
        value: { content: "[FILE] note.txt" },
      });
      expect(await fs.readTextFile({ path: file })).toMatchObject({ ok: true, value: { content: "hello" } });
      const outside = await fs.readTextFile({ path: path.join(dir, "package.json") });
      expect(outside.ok).toBe(false);
      expect(outside.message).toContain("Access denied - path outside allowed directories");
    });

    it("everything: echo, structured content, and invalid arguments caught before sending", async () => {
      const { createEverythingClient } = await load("everything");
      const client = await connect([EVERYTHING, "stdio"]);
      const everything = createEverythingClient(client);
      expect(await everything.echo({ message: "hi" })).toMatchObject({
        ok: true,
        value: [{ type: "text", text: "Echo: hi" }],
      });
      const weather = await everything.getStructuredContent({ location: "Chicago" });
      expect(weather.ok).toBe(true);
      expect(Object.keys(weather.value).sort()).toStrictEqual(["conditions", "humidity", "temperature"]);
      expect(weather.value.temperature).toBeTypeOf("number");
      await expect(everything.getStructuredContent({ location: "Paris" })).rejects.toThrow(ValidationError);
      const unchecked = createEverythingClient(client, { validateArguments: false });
      const rejected = await unchecked.getStructuredContent({ location: "Paris" });
      expect(rejected.ok).toBe(false);
      expect(rejected.tool).toBe("get-structured-content");
    });

    it("everything: the task-only simulate-research-query runs as a task through the typed client", async () => {
      const { createEverythingClient } = await load("everything");
      const everything = createEverythingClient(await connect([EVERYTHING, "stdio"]));
      expect(await everything.simulateResearchQuery({ topic: "tasks" })).toMatchObject({ ok: false });
      const task = await everything.simulateResearchQuery.task({ topic: "tasks" });
      expect(task.created).toMatchObject({ status: "working" });
      const result = await task.result();
      expect(result.ok).toBe(true);
      expect(result.value[0].text).toContain("# Research Report: tasks");
      expect((await task.status()).status).toBe("completed");
    });

    it("everything: resources, resource templates and prompts through the typed client", async () => {
      const { createEverythingClient } = await load("everything");
      const everything = createEverythingClient(await connect([EVERYTHING, "stdio"]));
      const [doc] = await everything.resources.architectureMd();
      expect(doc).toMatchObject({
        uri: "demo://resource/static/document/architecture.md",
        mimeType: "text/markdown",
      });
      expect(doc.text).toContain("Architecture");
      const [dynamic] = await everything.resources.dynamicTextResource({ resourceId: "7" });
      expect(dynamic.uri).toBe("demo://resource/dynamic/text/7");
      await expect(everything.resources.dynamicTextResource({})).rejects.toThrow(ValidationError);
      expect(await everything.prompts.simplePrompt()).toMatchObject([
        { role: "user", content: { type: "text" } },
      ]);
      const messages = await everything.prompts.argsPrompt({ city: "Oslo" });
      expect(JSON.stringify(messages)).toContain("Oslo");
      await expect(everything.prompts.argsPrompt({ state: "x" })).rejects.toThrow(ValidationError);
    });
  });
});

/** Code a user writes against the generated clients; tsc must accept it (and the expected errors). */
const USAGE = `import { connectStdio, type ToolCallResult } from "@mcp-gen/runtime/client";
import { createEverythingClient } from "./generated/everything/client.ts";
import { createFilesClient } from "./generated/files/client.ts";
import { createMemoryClient } from "./generated/memory/client.ts";
import type { GetStructuredContentOutput } from "./generated/everything/types.ts";

const { client } = await connectStdio({ command: "node", args: ["server.js"] });
const memory = createMemoryClient(client);
const graph = await memory.readGraph();
if (graph.ok) {
  const names: string[] = graph.value.entities.map((e) => e.name);
  const from: string | undefined = graph.value.relations[0]?.from;
  void names;
  void from;
} else {
  const message: string = graph.message;
  void message;
}
// @ts-expect-error entityType is required
void memory.createEntities({ entities: [{ name: "a", observations: [] }] });
const files = createFilesClient(client);
const text = await files.readTextFile({ path: "/tmp/x", head: 3 });
if (text.ok) {
  const content: string = text.value.content;
  void content;
}
// @ts-expect-error head is a number
void files.readTextFile({ path: "/tmp/x", head: "3" });
const everything = createEverythingClient(client);
const weather: ToolCallResult<GetStructuredContentOutput> = await everything.getStructuredContent({ location: "Chicago" });
// @ts-expect-error Paris is not one of the locations
void everything.getStructuredContent({ location: "Paris" });
// @ts-expect-error tool names that are not identifiers become camelCase methods
void everything["get-sum"];
void everything.getSum({ a: 1, b: 2 });
void weather;
const docs = await everything.resources.architectureMd();
const uri: string | undefined = docs[0]?.uri;
void uri;
// @ts-expect-error resourceId is a template variable
void everything.resources.dynamicTextResource({ id: "1" });
const messages = await everything.prompts.argsPrompt({ city: "Oslo" });
const role: "user" | "assistant" | undefined = messages[0]?.role;
void role;
// @ts-expect-error city is required
void everything.prompts.argsPrompt({});
`;

function exec(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}
