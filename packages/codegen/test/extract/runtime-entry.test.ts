import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { extract } from "../../src/extract/index.ts";
import { createExtractionProgram } from "../../src/extract/program.ts";
import { fixtureConfig, tempProject } from "../support/project.ts";

/** Which parts of the runtime and its SDKs the extraction program read. */
function programOf(files: Record<string, string>) {
  const dir = tempProject(files);
  const config = fixtureConfig(dir, { tools: ["tools.ts"] });
  const program = createExtractionProgram(config, [path.join(dir, "tools.ts")]);
  const names = program.getSourceFiles().map((f) => f.fileName);
  return {
    config,
    runtimeFiles: names
      .filter((n) => /[\\/]packages[\\/]runtime[\\/]src[\\/]/.test(n))
      .map((n) => n.replace(/.*[\\/]packages[\\/]runtime[\\/]src[\\/]/, ""))
      .sort(),
    anthropic: names.some((n) => n.includes("@anthropic-ai")),
    mcpSdk: names.some((n) => n.includes("@modelcontextprotocol")),
  };
}

const TAGGED = `
/** Adds. */
export function add(a: Int & Minimum<0>, b: Int = 1): Int {
  return a + b;
}
`;

describe("the extraction program reads only the runtime entry the tool modules need", () => {
  const saved = process.env.MCP_GEN_FULL_RUNTIME;
  afterEach(() => {
    if (saved === undefined) delete process.env.MCP_GEN_FULL_RUNTIME;
    else process.env.MCP_GEN_FULL_RUNTIME = saved;
  });

  it("resolves the root entry to /tags when only tags are imported, and extracts the same tools", async () => {
    const light = programOf({
      "tools.ts": `import type { Int, Minimum } from "@mcp-gen/runtime";\n${TAGGED}`,
    });
    expect(light).toMatchObject({ runtimeFiles: ["tags.ts"], anthropic: false, mcpSdk: false });
    const lightIr = await extract(light.config);
    process.env.MCP_GEN_FULL_RUNTIME = "1";
    const dir = light.config.root;
    const full = createExtractionProgram(light.config, [path.join(dir, "tools.ts")]).getSourceFiles();
    expect(full.some((f) => f.fileName.includes("@anthropic-ai"))).toBe(true);
    expect(await extract(light.config)).toStrictEqual(lightIr);
    expect(lightIr.servers[0]!.tools[0]!.params[0]!.type).toStrictEqual({
      kind: "integer",
      constraints: { minimum: 0 },
    });
  });

  it("resolves it to /tool for ToolContext, ToolError and the content helpers", () => {
    const program = programOf({
      "tools.ts": `import { type Int, type ToolContext, ToolError, text } from "@mcp-gen/runtime";
/** Waits. */
export async function wait(n: Int, ctx: ToolContext): Promise<string> {
  if (n < 0) throw new ToolError("n < 0");
  await ctx.log("info", text("x"));
  return "done";
}
`,
    });
    expect(program.runtimeFiles).toStrictEqual([
      "content.ts",
      "context.ts",
      "tags.ts",
      "tool-error.ts",
      "tool.ts",
    ]);
    expect(program).toMatchObject({ anthropic: false, mcpSdk: true });
  });

  it.each([
    [
      "a name only the root entry exports",
      `import { type Int, serve } from "@mcp-gen/runtime";\nvoid serve;`,
    ],
    [
      "a namespace import",
      `import type * as rt from "@mcp-gen/runtime";\ntype Int = rt.Int;\ntype Minimum<N extends number> = rt.Minimum<N>;`,
    ],
    [
      "a re-export",
      `import type { Int, Minimum } from "@mcp-gen/runtime";\nexport type { Int } from "@mcp-gen/runtime";`,
    ],
  ])("reads the whole runtime for %s", (_, imports) => {
    const program = programOf({ "tools.ts": `${imports}\n${TAGGED}` });
    expect(program.runtimeFiles).toContain("index.ts");
    expect(program.anthropic).toBe(true);
  });

  it("reads the whole runtime when another file of the program uses more of it", async () => {
    const files = {
      "tools.ts": `import type { Int, Minimum } from "@mcp-gen/runtime";
import { started } from "./helper.ts";
${TAGGED}
/** Says when. */
export function since(): string {
  return started;
}
`,
      "helper.ts": `import { LOG_LEVELS, type RunningServer } from "@mcp-gen/runtime";
export let server: RunningServer | undefined;
export const started: string = LOG_LEVELS[0]!;
`,
    };
    const program = programOf(files);
    expect(program.runtimeFiles).toContain("index.ts");
    expect(program.anthropic).toBe(true);
    expect((await extract(program.config)).servers[0]!.tools.map((t) => t.name)).toStrictEqual([
      "add",
      "since",
    ]);
  });

  it("reads the whole runtime for an import type of the root entry", () => {
    const program = programOf({
      "tools.ts": `import type { Int, Minimum } from "@mcp-gen/runtime";
${TAGGED}
/** Lists. */
export function levels(): import("@mcp-gen/runtime").LogLevel[] {
  return [];
}
`,
    });
    expect(program.runtimeFiles).toContain("index.ts");
  });
});
