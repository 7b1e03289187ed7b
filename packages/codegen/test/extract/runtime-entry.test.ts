import path from "node:path";
import { formatDiagnostic, type McpGenError } from "@mcp-gen/schema";
import type { ts } from "ts-morph";
import { afterEach, describe, expect, it } from "vitest";
import { extract } from "../../src/extract/index.ts";
import { createExtractionProgram } from "../../src/extract/program.ts";
import { guessRuntimeImports } from "../../src/extract/runtime-entry.ts";
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
  const saved = process.env.MCP_GEN_FULL_PROGRAM;
  afterEach(() => {
    if (saved === undefined) delete process.env.MCP_GEN_FULL_PROGRAM;
    else process.env.MCP_GEN_FULL_PROGRAM = saved;
  });

  it("resolves the root entry to /tags when only tags are imported, and extracts the same tools", async () => {
    const light = programOf({
      "tools.ts": `import type { Int, Minimum } from "@mcp-gen/runtime";\n${TAGGED}`,
    });
    expect(light).toMatchObject({ runtimeFiles: ["tags.ts"], anthropic: false, mcpSdk: false });
    const lightIr = await extract(light.config);
    process.env.MCP_GEN_FULL_PROGRAM = "1";
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

  it("guesses the names from the text before parsing, and a wrong guess still gives the right program", () => {
    expect([
      ...guessRuntimeImports([
        `import { type Int, ToolError as Failure } from "@mcp-gen/runtime";`,
        `import type {\n  Minimum,\n} from '@mcp-gen/runtime';\nimport { x } from "@mcp-gen/runtime/tags";`,
      ]),
    ]).toStrictEqual(["Int", "ToolError", "Minimum"]);
    const program = programOf({
      "tools.ts": `/**
 * Not an import: import type { Int, ToolContext } from "@mcp-gen/runtime";
 */
import type { Int, Minimum } from "@mcp-gen/runtime";
${TAGGED}`,
    });
    expect(program.runtimeFiles).toStrictEqual(["tags.ts"]);
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

describe("extraction without the global type packages while tsc checks", () => {
  const saved = process.env.MCP_GEN_FULL_PROGRAM;
  afterEach(() => {
    if (saved === undefined) delete process.env.MCP_GEN_FULL_PROGRAM;
    else process.env.MCP_GEN_FULL_PROGRAM = saved;
  });
  const hasNodeTypes = (program: ts.Program) =>
    program.getSourceFiles().some((f) => /[\\/]@types[\\/]node[\\/]/.test(f.fileName));

  it("leaves @types/node out of the lean program only", () => {
    const { config } = programOf({
      "tools.ts": `import type { Int, Minimum } from "@mcp-gen/runtime";\n${TAGGED}`,
    });
    const files = [path.join(config.root, "tools.ts")];
    expect(hasNodeTypes(createExtractionProgram(config, files, { withoutGlobalTypes: true }))).toBe(false);
    expect(hasNodeTypes(createExtractionProgram(config, files))).toBe(true);
    process.env.MCP_GEN_FULL_PROGRAM = "1";
    expect(hasNodeTypes(createExtractionProgram(config, files, { withoutGlobalTypes: true }))).toBe(true);
  });

  it("redoes the extraction with them when a tool's type needs them, with the same result", async () => {
    const { config } = programOf({
      "tools.ts": `/** Where it runs. */
export function platform_name(platform: NodeJS.Platform, extra: Partial<NodeJS.ProcessVersions> = {}): string {
  return platform + Object.keys(extra).length;
}
`,
    });
    const lean = await extract(config);
    const type = lean.servers[0]!.tools[0]!.params[0]!.type as { kind: string; values: unknown[] };
    expect(type.kind).toBe("enum");
    expect(type.values).toContain("linux");
    process.env.MCP_GEN_FULL_PROGRAM = "1";
    expect(await extract(config)).toStrictEqual(lean);
  });

  it("reads the whole program when a type name does not resolve, even where no unresolved type reaches the mapper", async () => {
    const { config } = programOf({
      "tools.ts": `type IsString<T> = T extends string ? "yes" : "no";
/** Says whether a platform name is a string. */
export function kind(answer: IsString<NodeJS.Platform>): string {
  return answer;
}
`,
    });
    const lean = await extract(config);
    expect(lean.servers[0]!.tools[0]!.params[0]!.type).toStrictEqual({ kind: "literal", value: "yes" });
    process.env.MCP_GEN_FULL_PROGRAM = "1";
    expect(await extract(config)).toStrictEqual(lean);
  });

  it("reports the errors of the whole program", async () => {
    const { config } = programOf({
      "tools.ts": `/** Reads. */
export function read_bytes(data: Buffer): number {
  return data.length;
}
`,
    });
    const messages = () =>
      extract(config).then(
        () => [],
        (e: McpGenError) => e.diagnostics.map(formatDiagnostic),
      );
    const lean = await messages();
    expect(lean).toHaveLength(1);
    expect(lean[0]).toContain("tools.ts:2:");
    process.env.MCP_GEN_FULL_PROGRAM = "1";
    expect(await messages()).toStrictEqual(lean);
  });
});
