import path from "node:path";
import type { Contract, ToolBinding } from "@mcp-gen/schema";
import { beforeAll, describe, expect, it } from "vitest";
import { generate } from "../src/build.ts";
import { emitServerManifest } from "../src/emit/server-manifest.ts";
import { textOf } from "../src/write/outputs.ts";
import { fixtureNaming, fixturesConfig } from "./support/project.ts";

const FIXTURES = path.join(import.meta.dirname, "fixtures");
const CASES = [
  "class-tools",
  "context-param",
  "dates",
  "destructured",
  "input-schema",
  "prompts",
  "resources",
  "snake-case",
  "urls",
];

describe("server manifest of golden fixtures", () => {
  let files: Map<string, string>;
  beforeAll(async () => {
    const config = fixturesConfig(FIXTURES, CASES, { naming: (name) => fixtureNaming(FIXTURES, name) });
    const result = await generate(config);
    files = new Map(result.outputs.files.map((f) => [f.path, textOf(f)]));
  });

  it.each(CASES)("emits the golden server.ts of %s", async (name) => {
    await expect(files.get(`generated/${name}/server.ts`)).toMatchFileSnapshot(
      `fixtures/${name}/expected/server.ts.snap`,
    );
  });
});

function contract(tools: { name: string; binding?: Partial<ToolBinding>; output?: boolean }[]): Contract {
  return {
    server: "demo",
    tools: tools.map((t) => ({
      name: t.name,
      inputSchema: { type: "object" },
      ...(t.output ? { outputSchema: { type: "object" } } : {}),
    })),
    "x-mcp-gen": {
      tools: Object.fromEntries(
        tools.map((t) => [
          t.name,
          t.binding
            ? {
                binding: {
                  kind: "function",
                  module: "src/tools.ts",
                  export: t.name,
                  argsStyle: "positional",
                  params: [],
                  ...t.binding,
                } as ToolBinding,
              }
            : {},
        ]),
      ),
    },
  };
}

function emit(c: Contract) {
  return emitServerManifest({
    contract: c,
    contractFile: "schemas/demo.tools.json",
    outDir: "generated/demo",
    warnings: [],
    importExtension: ".ts",
  });
}

const invokeLines = (text: string) =>
  text
    .split("\n")
    .filter((l) => l.includes("invoke:"))
    .map((l) => l.trim());

describe("emitServerManifest", () => {
  it("maps arguments to parameters, with the context at its index", () => {
    const [file] = emit(
      contract([
        { name: "plain", binding: { params: ["a", "b-c"] } },
        { name: "ctx-first", binding: { export: "ctxFirst", params: ["a"], contextIndex: 0 } },
        { name: "ctx_middle", binding: { params: ["a", "b"], contextIndex: 1 } },
        { name: "ctx_only", binding: { contextIndex: 0 } },
        { name: "whole", binding: { argsStyle: "object", params: ["x", "y"], contextIndex: 1 } },
        { name: "method", binding: { kind: "method", export: "Shop", method: "sell-item", params: ["id"] } },
      ]),
    );
    expect(file!.path).toBe("generated/demo/server.ts");
    expect(invokeLines(file!.content)).toStrictEqual([
      'invoke: (args) => srcTools.plain(args.a, args["b-c"]),',
      "invoke: (args, ctx) => srcTools.ctxFirst(ctx!, args.a),",
      "invoke: (args, ctx) => srcTools.ctx_middle(args.a, ctx!, args.b),",
      "invoke: (_args, ctx) => srcTools.ctx_only(ctx!),",
      "invoke: (args, ctx) => srcTools.whole(args, ctx!),",
      'invoke: (args) => instances.Shop["sell-item"](args.id),',
    ]);
    expect(file!.content).toContain('input: validators["ctx-first"].input,');
    expect(file!.content).toContain("export function createManifest(instances: Instances): ServerManifest {");
  });

  it("imports every module once, relative to the generated folder, under distinct names", () => {
    const [file] = emit(
      contract([
        { name: "a", binding: { module: "lib/tools.ts" } },
        { name: "b", binding: { module: "src/tools.ts" } },
        { name: "c", binding: { module: "other/src/tools.ts" } },
        { name: "d", binding: { module: "tools.ts" } },
      ]),
    );
    expect(file!.content.split("\n").filter((l) => l.startsWith("import * as"))).toStrictEqual([
      'import * as libTools from "../../lib/tools.ts";',
      'import * as srcTools from "../../other/src/tools.ts";',
      'import * as srcTools2 from "../../src/tools.ts";',
      'import * as tools2 from "../../tools.ts";',
    ]);
  });

  it("emits no manifest for contracts without bindings (pulled or hand-written)", () => {
    expect(emit(contract([{ name: "a" }, { name: "b", binding: {} }]))).toStrictEqual([]);
    expect(emit({ server: "demo", tools: [] })).toStrictEqual([]);
  });

  it("serves resources and prompts without tools, completers from other modules, odd names", () => {
    const [file] = emit({
      server: "demo",
      tools: [],
      resources: [{ uri: "app://status", name: "status" }],
      resourceTemplates: [{ uriTemplate: "app://items/{id}", name: "item-by-id" }],
      prompts: [{ name: "ask", arguments: [{ name: "q", required: true }] }],
      "x-mcp-gen": {
        tools: {},
        resources: { status: { binding: { module: "src/res.ts", export: "status", params: [] } } },
        resourceTemplates: {
          "item-by-id": {
            binding: { module: "src/res.ts", export: "item", params: ["id"], contextIndex: 0 },
            argumentsSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
            complete: { id: { binding: { module: "src/complete.ts", export: "ids" } } },
          },
        },
        prompts: {
          ask: {
            binding: { module: "src/prompts.ts", export: "ask", params: ["q"] },
            argumentsSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
          },
        },
      },
    });
    const lines = file!.content.split("\n").map((l) => l.trim());
    expect(lines.filter((l) => l.startsWith("import"))).toStrictEqual([
      'import { defineManifest, type ServerManifest } from "@mcp-gen/runtime/server";',
      'import * as srcComplete from "../../src/complete.ts";',
      'import * as srcPrompts from "../../src/prompts.ts";',
      'import * as srcRes from "../../src/res.ts";',
      'import { resourceTemplateValidators, promptValidators } from "./index.ts";',
      'import { tools, resources, resourceTemplates, prompts } from "./tools.ts";',
    ]);
    expect(lines).toContain("read: () => srcRes.status(),");
    expect(lines).toContain('variables: resourceTemplateValidators["item-by-id"],');
    expect(lines).toContain("id: srcComplete.ids,");
    expect(lines).toContain("read: (variables, ctx) => srcRes.item(ctx!, variables.id),");
    expect(lines).toContain("get: (args) => srcPrompts.ask(args.q),");
    // a contract whose prompt has no binding (pulled) gets no manifest
    expect(emit({ server: "demo", tools: [], prompts: [{ name: "ask" }] })).toStrictEqual([]);
  });
});
