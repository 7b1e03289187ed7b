import type { Contract } from "@mcp-gen/schema";
import { McpGenError } from "@mcp-gen/schema";
import { describe, expect, it } from "vitest";
import { toolMethodNames } from "../../src/emit/client.ts";
import { emitServer } from "../../src/emit/index.ts";

const input = { type: "object", properties: { a: { type: "number" } }, additionalProperties: false };
const contract = (...names: string[]): Contract => ({
  server: "calc",
  tools: names.map((name) => ({ name, inputSchema: input })),
});
const ctx = (c: Contract) => ({
  contract: c,
  contractFile: "schemas/calc.tools.json",
  outDir: "generated/calc",
  warnings: [],
  importExtension: ".js" as const,
});

describe("typed client method names", () => {
  it("gives tool names that are not identifiers stable camelCase names", () => {
    const names = toolMethodNames(ctx(contract("get-sum", "read.file", "2fa", "delete", "list_all_items")));
    expect(Object.fromEntries(names)).toStrictEqual({
      "get-sum": "getSum",
      "read.file": "readFile",
      "2fa": "_2fa",
      delete: "delete_",
      list_all_items: "listAllItems",
    });
  });

  it("rejects two tools that map to one method, naming both", () => {
    expect(() => toolMethodNames(ctx(contract("get_sum", "get.sum")))).toThrow(McpGenError);
    expect(() => toolMethodNames(ctx(contract("get_sum", "get.sum")))).toThrow(
      'error MCPG032: tools "get_sum" and "get.sum" both map to the client method getSum()\n' +
        "  at schemas/calc.tools.json /tools/1/name\n" +
        "  fix: rename one of the tools so their names differ in more than punctuation or case",
    );
  });

  it("emits quoted spec keys and validator access for non-identifier names", () => {
    const { files } = emitServer(contract("get-sum"), { contractFile: "c.json", outDir: "g" });
    const client = files.find((f) => f.path === "g/client.ts")!.content;
    expect(client).toContain('"get-sum": { name: "get-sum", input: validators["get-sum"].input },');
    expect(client).toContain('getSum: (args, callOptions) => call(specs["get-sum"], args, callOptions),');
    expect(client).toContain(
      "getSum(args?: T.GetSumInput, options?: CallOptions): Promise<ToolCallResult<ToolContent>>;",
    );
  });

  it("gives tools that support tasks a .task() method, and no others", () => {
    const c = contract("render", "plain");
    c.tools[0]!.execution = { taskSupport: "required" };
    const { files } = emitServer(c, { contractFile: "c.json", outDir: "g" });
    const client = files.find((f) => f.path === "g/client.ts")!.content;
    expect(client).toContain(
      'import { createToolCaller, createTaskStarter } from "@mcp-gen/runtime/client";',
    );
    expect(client).toContain("const startTask = createTaskStarter(client, options);");
    expect(client).toContain(
      "render: Object.assign((args: unknown, callOptions?: CallOptions) => call(specs.render, args, callOptions), { task: (args: unknown, taskOptions?: TaskCallOptions) => startTask(specs.render, args, taskOptions) }),",
    );
    expect(client).toContain(
      "task(args?: T.RenderInput, options?: TaskCallOptions): Promise<ToolTask<ToolContent>>;",
    );
    expect(client).toContain("(this tool runs only as a task)");
    expect(client).toContain("plain: (args, callOptions) => call(specs.plain, args, callOptions),");
    const none = emitServer(contract("plain"), { contractFile: "c.json", outDir: "g" });
    expect(none.files.find((f) => f.path === "g/client.ts")!.content).not.toContain("Task");
  });
});
