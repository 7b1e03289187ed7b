import { readFileSync } from "node:fs";
import {
  type ApiServer,
  apiNames,
  apiServer,
  describeApi,
  renderDeclarations,
  renderIndex,
} from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";

/** Resources, resource templates and prompts as functions of the declarations. */
const contract = (name: string) =>
  apiServer(
    JSON.parse(readFileSync(new URL(`../../../../schemas/${name}.tools.json`, import.meta.url), "utf8")),
  );

const files: ApiServer = {
  name: "files",
  tools: [{ name: "read_readme", inputSchema: { type: "object" } }],
  resources: [
    { uri: "file:///README.md", name: "readme", mimeType: "text/markdown", description: "The readme." },
  ],
  resourceTemplates: [{ uriTemplate: "file:///{+path}", name: "file", title: "A file" }],
  prompts: [
    {
      name: "summarize",
      arguments: [
        { name: "path", description: "The file", required: true },
        { name: "style", required: false },
      ],
    },
  ],
};

describe("read functions", () => {
  it("names them read_/prompt_ after the tools, numbering a name a tool already has", () => {
    const n = apiNames([files]).get("files")!;
    expect(Object.fromEntries(n.reads)).toStrictEqual({
      "resource:readme": "read_readme_2",
      "template:file": "read_file",
      "prompt:summarize": "prompt_summarize",
    });
    expect(Object.fromEntries(n.tools)).toStrictEqual({ read_readme: "read_readme" });
  });

  it("declares each with its description, URI and MIME type, arguments and value", () => {
    expect(renderDeclarations([files]).split("\n")).toStrictEqual([
      "declare namespace files {",
      '  type PromptMessage = { role: "user" | "assistant"; content: { type: "text"; text: string } | { type: "image" | "audio" | "resource" | "resource_link"; [key: string]: unknown } };',
      "  /** Returns unknown: the tool declares no output schema. */",
      "  function read_readme(): Promise<unknown>;",
      "  /**",
      "   * The readme.",
      "   * Reads resource file:///README.md (text/markdown).",
      "   */",
      "  function read_readme_2(): Promise<string>;",
      "  /**",
      "   * A file",
      "   * Reads resource file:///{+path}.",
      "   */",
      "  function read_file(args: { path: string }): Promise<unknown>;",
      '  /** Prompt "summarize": its messages. */',
      "  function prompt_summarize(args: {",
      "    /** The file */",
      "    path: string;",
      "    style?: string;",
      "  }): Promise<PromptMessage[]>;",
      "}",
      "",
    ]);
  });

  it("types a template's variables and a resource's JSON value from the contract", () => {
    const text = renderDeclarations([contract("economics")], { compact: true });
    expect(text).toContain(
      '// Reads resource economics://parameters/{category} (application/json).\nfunction read_parameters_of_category(args:{\n// Parameter category\ncategory:["labor","market","population","simulation","tax"][number]}):Promise<Record<string,// One configurable parameter of the economic simulation.\n{',
    );
  });

  it("lists them in the index and describes them by identifier or by name", () => {
    expect(renderIndex([files]).split("\n")[1]).toBe(
      "files: read_readme, read_readme_2, read_file, prompt_summarize",
    );
    const byId = describeApi([files], "files.read_readme_2");
    expect(byId.ok && byId.declarations.match(/^\w+(?=\()/gm)).toStrictEqual(["read_readme_2"]);
    const byName = describeApi([files], "files.summarize");
    expect(byName.ok && byName.declarations.match(/^type \w+|^\w+(?=\()/gm)).toStrictEqual([
      "type PromptMessage",
      "prompt_summarize",
    ]);
    const topic = describeApi([contract("conformance")], "conformance.read_*");
    expect(topic.ok && topic.declarations.match(/^\w+(?=\()/gm)).toStrictEqual([
      "read_static_binary",
      "read_static_text",
      "read_watched_resource",
      "read_template_data",
    ]);
    expect(describeApi([files], "files.prompt_summary")).toStrictEqual({
      ok: false,
      error: 'files has no function "prompt_summary"; did you mean "prompt_summarize"?',
    });
  });
});

describe("named types", () => {
  it("never hide a library type: a recurring shape held by `records` is `Record_`", () => {
    const record = {
      type: "object",
      properties: { id: { type: "string" }, n: { type: "number" } },
      required: ["id", "n"],
      additionalProperties: false,
    };
    const list = {
      type: "object",
      properties: {
        records: { type: "array", items: record },
        tags: { type: "object", additionalProperties: { type: "string" } },
      },
      required: ["records", "tags"],
      additionalProperties: false,
    };
    const text = renderDeclarations(
      [
        {
          name: "store",
          tools: [
            { name: "list", inputSchema: { type: "object" }, outputSchema: list },
            { name: "first", inputSchema: { type: "object" }, outputSchema: record },
          ],
        },
      ],
      { compact: true },
    );
    expect(text.split("\n")).toStrictEqual([
      "declare namespace store {",
      "type Record_ = {id:string;n:number};",
      "function list():Promise<{records:Record_[];tags:Record<string,string>}>;",
      "function first():Promise<Record_>;",
      "}",
      "",
    ]);
  });
});
