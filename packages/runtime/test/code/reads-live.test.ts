import path from "node:path";
import { type Connection, connectStdio } from "@mcp-gen/runtime/client";
import { type ApiServer, type CodeMode, codeMode } from "@mcp-gen/runtime/code";
import ts from "typescript-5";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Read functions of a real third-party server (server-everything from npm, over stdio): its
 * `resources/list`, `resources/templates/list` and `prompts/list` become functions of the program,
 * read through the SDK client with `resources/read` and `prompts/get`.
 */
const SCRIPT = path.resolve(
  import.meta.dirname,
  "../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);
let connection: Connection;
let code: CodeMode;

beforeAll(async () => {
  connection = await connectStdio({ command: process.execPath, args: [SCRIPT, "stdio"], stderr: "ignore" });
  const { client } = connection;
  const [{ tools }, { resources }, { resourceTemplates }, { prompts }] = await Promise.all([
    client.listTools(),
    client.listResources(),
    client.listResourceTemplates(),
    client.listPrompts(),
  ]);
  code = await codeMode({
    servers: [
      {
        name: "everything",
        client,
        tools: tools as ApiServer["tools"],
        resources,
        resourceTemplates,
        prompts: prompts as ApiServer["prompts"],
      },
    ],
    typescript: ts,
  });
});

afterAll(async () => {
  await code?.close();
  await connection?.close();
});

describe("read functions of server-everything", () => {
  it("declares its resources, templates and prompts with their URIs and MIME types", () => {
    const text = code.description.text;
    expect(text).toContain(
      "// Reads resource demo://resource/static/document/architecture.md (text/markdown).\nread_architecture_md():string;",
    );
    expect(text).toContain(
      "// Reads resource demo://resource/dynamic/text/{resourceId} (text/plain).\nread_Dynamic_Text_Resource(args:{resourceId:string}):string;",
    );
    expect(text).toMatch(
      /\nprompt_args_prompt\(args:\{\n\/\/ Name of the city\ncity:string;\nstate\?:string\}\):PromptMessage\[\];/,
    );
  });

  it("runs a program that reads a resource, a template and a prompt", async () => {
    const result = await code.run(
      [
        "const doc = await everything.read_architecture_md();",
        'const dynamic = await everything.read_Dynamic_Text_Resource({ resourceId: "3" });',
        'const [message] = await everything.prompt_args_prompt({ city: "Paris" });',
        'const said = message?.content.type === "text" ? message.content.text : "";',
        'return { title: doc.split("\\n")[0], dynamic: dynamic.length > 0, paris: said.includes("Paris") };',
      ].join("\n"),
    );
    expect(result).toMatchObject({
      ok: true,
      value: { title: "# Everything Server – Architecture", dynamic: true, paris: true },
    });
    expect(result.calls.map((c) => c.outcome)).toStrictEqual(["ok", "ok", "ok"]);
  });
});
