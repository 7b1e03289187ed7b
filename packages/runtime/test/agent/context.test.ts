import path from "node:path";
import { AgentError, createAgent, type ModelProvider, mcpTools } from "@mcp-gen/runtime/agent";
import { connectInMemory } from "@mcp-gen/runtime/client";
import { createServer, defineManifest, type ServerManifest } from "@mcp-gen/runtime/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSchemaCompiler } from "../../src/agent/tools/compile-schema.ts";
import { type ScriptedModel, startScriptedModel } from "../../src/testing/index.ts";
import { catalogManifest, PNG, ran } from "../server/fixtures/catalog/manifest.ts";
import { modelFor, type Provider, smartHome } from "./support.ts";

const EVERYTHING = path.resolve(
  import.meta.dirname,
  "../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);
const PNG_BASE64 = Buffer.from(PNG).toString("base64");
const PDF = new Uint8Array([37, 80, 68, 70, 45, 49, 46, 55, 10, 0, 255]);

let scripted: ScriptedModel | undefined;
const cleanup: (() => unknown)[] = [];
beforeEach(() => {
  ran.length = 0;
});
afterEach(async () => {
  await scripted?.close();
  scripted = undefined;
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** The catalog fixture served by the runtime's server, reached as an MCP source over an SDK client. */
async function catalogSource() {
  const connection = await connectInMemory(createServer(catalogManifest(), { onError: () => {} }));
  cleanup.push(() => connection.close());
  return mcpTools({ name: "catalog", client: connection.client });
}

const noArguments = createSchemaCompiler()(
  { type: "object", additionalProperties: false },
  "arguments",
).validator;

/** An in-process manifest with resources and prompts (the agent serves them in memory). */
function docsManifest(): ServerManifest {
  return defineManifest({
    server: "docs",
    tools: [],
    resources: [
      {
        definition: { uri: "docs://guide", name: "guide", mimeType: "text/markdown" },
        usesContext: false,
        read: () => "# Guide\nRead me first.",
      },
      {
        definition: { uri: "docs://manual.pdf", name: "manual", mimeType: "application/pdf" },
        usesContext: false,
        read: () => PDF,
      },
    ],
    prompts: [
      {
        definition: { name: "show_logo", description: "An image and a document to look at." },
        input: noArguments,
        usesContext: false,
        get: () => [
          { role: "user", content: { type: "text", text: "Compare the logo with the manual." } },
          { role: "user", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
          {
            role: "user",
            content: {
              type: "resource",
              resource: {
                uri: "docs://manual.pdf",
                mimeType: "application/pdf",
                blob: Buffer.from(PDF).toString("base64"),
              },
            },
          },
          { role: "user", content: { type: "audio", data: "AAAA", mimeType: "audio/wav" } },
          {
            role: "assistant",
            content: {
              type: "resource",
              resource: { uri: "docs://guide", mimeType: "text/markdown", text: "# Guide" },
            },
          },
          { role: "assistant", content: { type: "image", data: PNG_BASE64, mimeType: "image/png" } },
        ],
      },
    ],
  });
}

/** The error a promise rejects with (failing when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<AgentError> {
  const error = await promise.then(
    () => new Error("expected a rejection"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AgentError);
  return error as AgentError;
}

/** The messages of the first request, as the wire server received them. */
const sent = () => scripted!.requests[0]!.body.messages;

describe.each([
  "anthropic",
  "openai",
] as Provider[])("resources into the conversation through %s", (provider) => {
  it("attaches text, JSON and an image as context blocks naming URI and MIME type, before the message", async () => {
    scripted = await startScriptedModel({ script: [{ text: "read them" }] });
    const agent = createAgent({ model: modelFor(provider, scripted), tools: [await catalogSource()] });
    const result = await agent.chat("What do they say?", {
      resources: ["test://static-text", "test://settings", "test://static-binary"],
    });
    expect(result.text).toBe("read them");
    expect(scripted.rejected).toStrictEqual([]);
    const text =
      '<resource uri="test://static-text" mimeType="text/plain">\nThis is the content of the static text resource.\n</resource>';
    const json =
      '<resource uri="test://settings" mimeType="application/json">\n{"theme":"dark","size":3}\n</resource>';
    const open = '<resource uri="test://static-binary" mimeType="image/png">';
    const image =
      provider === "anthropic"
        ? { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } }
        : { type: "image_url", image_url: { url: `data:image/png;base64,${PNG_BASE64}` } };
    expect(sent()).toStrictEqual([
      {
        role: "user",
        content: [
          { type: "text", text },
          { type: "text", text: json },
          { type: "text", text: open },
          image,
          { type: "text", text: "</resource>" },
          { type: "text", text: "What do they say?" },
        ],
      },
    ]);
    // The conversation keeps the neutral blocks, which the next run sends again.
    expect(result.messages[0]).toStrictEqual({
      role: "user",
      content: [
        {
          type: "resource",
          uri: "test://static-text",
          mimeType: "text/plain",
          text: "This is the content of the static text resource.",
        },
        {
          type: "resource",
          uri: "test://settings",
          mimeType: "application/json",
          text: '{"theme":"dark","size":3}',
        },
        { type: "resource", uri: "test://static-binary", mimeType: "image/png", image: PNG_BASE64 },
        { type: "text", text: "What do they say?" },
      ],
    });
  });

  it("reads a template's URI through its source, as a message of history that later runs send again", async () => {
    scripted = await startScriptedModel({ script: [{ text: "42" }, { text: "still 42" }] });
    const home = smartHome();
    const agent = createAgent({
      model: modelFor(provider, scripted),
      tools: [home.manifest, await catalogSource()],
    });
    const data = await agent.attachResource("test://template/42/data");
    expect(ran).toStrictEqual(["template_data 42"]);
    const first = await agent.chat("Which id?", { history: [data] });
    await agent.chat("Sure?", { history: first.messages });
    const block =
      '<resource uri="test://template/42/data" mimeType="application/json">\n{"id":"42","templateTest":true,"data":"Data for ID: 42"}\n</resource>';
    const second = scripted.requests[1]!.body.messages;
    if (provider === "anthropic") {
      // Consecutive user messages are one user turn of the Messages API.
      expect(sent()).toStrictEqual([
        {
          role: "user",
          content: [
            { type: "text", text: block },
            { type: "text", text: "Which id?" },
          ],
        },
      ]);
      expect(second).toStrictEqual([
        {
          role: "user",
          content: [
            { type: "text", text: block },
            { type: "text", text: "Which id?" },
          ],
        },
        { role: "assistant", content: [{ type: "text", text: "42" }] },
        { role: "user", content: [{ type: "text", text: "Sure?" }] },
      ]);
    } else {
      expect(sent()).toStrictEqual([
        { role: "user", content: [{ type: "text", text: block }] },
        { role: "user", content: "Which id?" },
      ]);
      expect(second).toStrictEqual([
        { role: "user", content: [{ type: "text", text: block }] },
        { role: "user", content: "Which id?" },
        { role: "assistant", content: "42" },
        { role: "user", content: "Sure?" },
      ]);
    }
  });

  it("starts from a prompt: its messages (with arguments) are the conversation", async () => {
    scripted = await startScriptedModel({ script: [{ text: "ok" }] });
    const agent = createAgent({ model: modelFor(provider, scripted), tools: [await catalogSource()] });
    const messages = await agent.usePrompt("test_prompt_with_arguments", { arg1: "paris", arg2: "tx" });
    expect(messages).toStrictEqual([
      { role: "user", content: "Prompt with arguments: arg1='paris', arg2='tx'" },
    ]);
    await agent.chat(messages);
    expect(sent()).toStrictEqual([
      provider === "anthropic"
        ? {
            role: "user",
            content: [{ type: "text", text: "Prompt with arguments: arg1='paris', arg2='tx'" }],
          }
        : { role: "user", content: "Prompt with arguments: arg1='paris', arg2='tx'" },
    ]);
  });

  it("maps a prompt's images, embedded resources and audio per provider; an assistant turn stays text", async () => {
    scripted = await startScriptedModel({ script: [{ text: "compared" }] });
    const agent = createAgent({ model: modelFor(provider, scripted), tools: [docsManifest()] });
    const messages = await agent.usePrompt("show_logo");
    await agent.chat([...messages, { role: "user", content: "Go on." }]);
    const pdf =
      '<resource uri="docs://manual.pdf" mimeType="application/pdf">\n[binary content not shown: application/pdf, 11 bytes]\n</resource>';
    const audio = "[audio not shown: audio/wav, 3 bytes; the model takes no audio]";
    const guide = '<resource uri="docs://guide" mimeType="text/markdown">\n# Guide\n</resource>';
    const logo = "[image not shown: image/png, 8 bytes; the model is shown images in user turns only]";
    if (provider === "anthropic")
      expect(sent()).toStrictEqual([
        {
          role: "user",
          content: [
            { type: "text", text: "Compare the logo with the manual." },
            { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } },
            { type: "text", text: pdf },
            { type: "text", text: audio },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "text", text: guide },
            { type: "text", text: logo },
          ],
        },
        { role: "user", content: [{ type: "text", text: "Go on." }] },
      ]);
    else
      expect(sent()).toStrictEqual([
        { role: "user", content: "Compare the logo with the manual." },
        {
          role: "user",
          content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${PNG_BASE64}` } }],
        },
        { role: "user", content: [{ type: "text", text: pdf }] },
        { role: "user", content: audio },
        { role: "assistant", content: guide },
        { role: "assistant", content: logo },
        { role: "user", content: "Go on." },
      ]);
  });
});

describe("resources and prompts of the sources", () => {
  it("lists resources with their source and prompts named as tools are", async () => {
    scripted = await startScriptedModel();
    const agent = createAgent({
      model: modelFor("anthropic", scripted),
      tools: [await catalogSource(), docsManifest()],
    });
    const { resources, resourceTemplates } = await agent.resources();
    expect(resources.map((r) => `${r.source} ${r.resource.uri}`)).toStrictEqual([
      ...catalogManifest().resources!.map((r) => `catalog ${r.definition.uri}`),
      "docs docs://guide",
      "docs docs://manual.pdf",
    ]);
    expect(resourceTemplates.map((t) => t.template.uriTemplate)).toStrictEqual([
      "test://template/{id}/data",
      "users://{id}/posts{?limit,draft}",
      "files://{+path}",
    ]);
    expect((await agent.prompts()).map((p) => [p.name, p.source, p.prompt.name])).toStrictEqual([
      ["catalog__test_simple_prompt", "catalog", "test_simple_prompt"],
      ["catalog__test_prompt_with_arguments", "catalog", "test_prompt_with_arguments"],
      ["catalog__repeat", "catalog", "repeat"],
      ["catalog__whoami_prompt", "catalog", "whoami_prompt"],
      ["catalog__test_input_required_result_prompt", "catalog", "test_input_required_result_prompt"],
      ["catalog__failing_prompt", "catalog", "failing_prompt"],
      ["catalog__bad_prompt", "catalog", "bad_prompt"],
      ["docs__show_logo", "docs", "show_logo"],
    ]);
    expect(scripted.requests).toStrictEqual([]);
  });

  it("rejects an unknown URI naming what exists, and sends nothing", async () => {
    scripted = await startScriptedModel({ script: [{ text: "never" }] });
    const agent = createAgent({ model: modelFor("openai", scripted), tools: [docsManifest()] });
    await expect(agent.chat("hi", { resources: ["docs://missing"] })).rejects.toThrow(
      new AgentError(
        "unknown-resource",
        'unknown resource "docs://missing": no source lists it or a template matching it. Resources: docs://guide (docs), docs://manual.pdf (docs).',
      ),
    );
    const none = createAgent({ model: modelFor("openai", scripted), tools: [smartHome().manifest] });
    await expect(none.attachResource("docs://guide")).rejects.toThrow(
      'unknown resource "docs://guide": no source offers resources',
    );
    expect(scripted.requests).toStrictEqual([]);
  });

  it("refuses a blob the model cannot be shown, and reports a failed read with the server's error", async () => {
    scripted = await startScriptedModel({ script: [{ text: "never" }] });
    const agent = createAgent({
      model: modelFor("anthropic", scripted),
      tools: [docsManifest(), await catalogSource()],
    });
    await expect(agent.chat("hi", { resources: ["docs://manual.pdf"] })).rejects.toThrow(
      new AgentError(
        "unsupported-content",
        'resource "docs://manual.pdf" is application/pdf, 11 bytes, which cannot be shown to the model: it takes text and images of image/png, image/jpeg, image/gif, image/webp',
      ),
    );
    const failed = await rejection(agent.attachResource("test://broken"));
    expect([failed.code, failed.message]).toStrictEqual([
      "resource-failed",
      'reading "test://broken" from "catalog" failed: MCP error -32603: disk on fire',
    ]);
    // A model taking other images gets them; one taking none gets the error for a PNG too.
    const textOnly: ModelProvider = { ...modelFor("anthropic", scripted), imageTypes: [] };
    const plain = createAgent({ model: textOnly, tools: [await catalogSource()] });
    await expect(plain.attachResource("test://static-binary")).rejects.toThrow(
      'resource "test://static-binary" is image/png, 8 bytes, which cannot be shown to the model: it takes text and images of ',
    );
    expect(scripted.requests).toStrictEqual([]);
  });

  it("checks prompt names and arguments before anything is sent, and reports the server's refusal", async () => {
    scripted = await startScriptedModel({ script: [{ text: "never" }] });
    const agent = createAgent({ model: modelFor("anthropic", scripted), tools: [await catalogSource()] });
    await expect(agent.usePrompt("nope")).rejects.toThrow(
      new AgentError(
        "unknown-prompt",
        'unknown prompt "nope". Prompts: test_simple_prompt, test_prompt_with_arguments, repeat, whoami_prompt, test_input_required_result_prompt, failing_prompt, bad_prompt',
      ),
    );
    await expect(agent.usePrompt("test_prompt_with_arguments", { arg1: "a", color: "red" })).rejects.toThrow(
      new AgentError(
        "prompt-arguments",
        'prompt "test_prompt_with_arguments" takes arg1 (required), arg2 (required): missing arg2; unknown color',
      ),
    );
    await expect(agent.usePrompt("test_simple_prompt", { x: "1" })).rejects.toThrow(
      'prompt "test_simple_prompt" takes no arguments: unknown x',
    );
    const refused = await rejection(agent.usePrompt("repeat", { word: "ab", times: "9" }));
    expect(refused.code).toBe("prompt-failed");
    expect(refused.message).toBe(
      'getting prompt "repeat" from "catalog" failed: MCP error -32602: Invalid arguments of prompt "repeat": 1 problem\n- /times: expected a number <= 5, received number 9',
    );
    expect(scripted.requests).toStrictEqual([]);
  });

  it("reads and prompts a third-party server over stdio (server-everything)", async () => {
    scripted = await startScriptedModel({ script: [{ text: "analysed" }] });
    const everything = mcpTools({
      name: "everything",
      stdio: { command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "pipe" },
    });
    const agent = createAgent({ model: modelFor("openai", scripted), tools: [everything] });
    cleanup.push(() => agent.close());
    const names = (await agent.prompts()).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["simple-prompt", "args-prompt", "resource-prompt"]));
    const messages = await agent.usePrompt("resource-prompt", { resourceType: "Blob", resourceId: "3" });
    await agent.chat(messages, { resources: ["demo://resource/dynamic/text/7"] });
    const [first, ...rest] = sent();
    expect(first.content[0].text).toMatch(
      /^<resource uri="demo:\/\/resource\/dynamic\/text\/7" mimeType="text\/plain">\nResource 7: This is a plaintext resource created at .+\n<\/resource>$/,
    );
    expect(rest[0]).toStrictEqual({
      role: "user",
      content: "This prompt includes the Blob resource with id: 3. Please analyze the following resource:",
    });
    // A text/plain blob is decoded for the model.
    expect(rest[1].content[0].text).toMatch(
      /^<resource uri="demo:\/\/resource\/dynamic\/blob\/3" mimeType="text\/plain">\nResource 3: This is a base64 blob created at .+\n<\/resource>$/,
    );
  });
});
