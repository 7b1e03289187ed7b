import path from "node:path";
import { formatDiagnostic, type McpGenError } from "@mcp-gen/schema";
import type { ts } from "ts-morph";
import { afterEach, describe, expect, it } from "vitest";
import { extract } from "../../src/extract/index.ts";
import { createExtractionProgram } from "../../src/extract/program.ts";
import { extractionPrograms, type Lean } from "../../src/extract/programs.ts";
import { fixtureConfig, tempProject } from "../support/project.ts";

function configOf(files: Record<string, string>) {
  return fixtureConfig(tempProject(files), { tools: ["tools.ts"] });
}

const TAGGED = `import type { Int, Minimum } from "@mcp-gen/runtime";

/** Adds. */
export function add(a: Int & Minimum<0>, b: Int = 1): Int {
  return a + b;
}
`;

/** The first parameter reads as an enum holding `value`, and as the same with the whole program. */
async function expectEnumAsWhole(config: ReturnType<typeof configOf>, value: string): Promise<void> {
  const lean = await extract(config);
  const type = lean.servers[0]!.tools[0]!.params[0]!.type as { kind: string; values: unknown[] };
  expect(type.kind).toBe("enum");
  expect(type.values).toContain(value);
  process.env.MCP_GEN_FULL_PROGRAM = "1";
  expect(await extract(config)).toStrictEqual(lean);
}

describe("extraction without the global type packages while tsc checks", () => {
  const saved = process.env.MCP_GEN_FULL_PROGRAM;
  afterEach(() => {
    if (saved === undefined) delete process.env.MCP_GEN_FULL_PROGRAM;
    else process.env.MCP_GEN_FULL_PROGRAM = saved;
  });
  const hasNodeTypes = (program: ts.Program) =>
    program.getSourceFiles().some((f) => /[\\/]@types[\\/]node[\\/]/.test(f.fileName));

  it("leaves @types/node out of the lean program only", () => {
    const config = configOf({ "tools.ts": TAGGED });
    const files = [path.join(config.root, "tools.ts")];
    expect(hasNodeTypes(createExtractionProgram(config, files, { withoutGlobalTypes: true }))).toBe(false);
    expect(hasNodeTypes(createExtractionProgram(config, files))).toBe(true);
    process.env.MCP_GEN_FULL_PROGRAM = "1";
    expect(hasNodeTypes(createExtractionProgram(config, files, { withoutGlobalTypes: true }))).toBe(true);
  });

  it("leaves the browser's libraries out of the lean program only", () => {
    const config = configOf({ "tools.ts": TAGGED });
    const files = [path.join(config.root, "tools.ts")];
    const hasDom = (program: ts.Program) =>
      program.getSourceFiles().some((f) => path.basename(f.fileName) === "lib.dom.d.ts");
    const lean = createExtractionProgram(config, files, { withoutGlobalTypes: true });
    expect(hasDom(lean)).toBe(false);
    expect(lean.getSourceFiles().some((f) => path.basename(f.fileName) === "lib.es2022.d.ts")).toBe(true);
    expect(hasDom(createExtractionProgram(config, files))).toBe(true);
  });

  it("reads a tool typed with the browser's libraries from the whole program, with the same result", async () => {
    const config = configOf({
      "tools.ts": `/** Fetches in a mode. */
export function fetch_mode(mode: RequestMode, cache: RequestCache = "default"): string {
  return mode + cache;
}
`,
    });
    await expectEnumAsWhole(config, "cors");
  });

  it("reads the whole program when a file augments the global scope", async () => {
    const config = configOf({
      "globals.ts": `export {};
declare global {
  interface Navigator {
    extra: string;
  }
}
`,
      "tools.ts": `import "./globals.ts";
/** Picks a property name of the navigator. */
export function pick(name: Extract<keyof Navigator, "extra" | "language">): string {
  return name;
}
`,
    });
    const lean = await extract(config);
    expect(lean.servers[0]!.tools[0]!.params[0]!.type).toStrictEqual({
      kind: "enum",
      values: ["extra", "language"],
    });
    process.env.MCP_GEN_FULL_PROGRAM = "1";
    expect(await extract(config)).toStrictEqual(lean);
  });

  it("redoes the extraction with them when a tool's type needs them, with the same result", async () => {
    const config = configOf({
      "tools.ts": `/** Where it runs. */
export function platform_name(platform: NodeJS.Platform, extra: Partial<NodeJS.ProcessVersions> = {}): string {
  return platform + Object.keys(extra).length;
}
`,
    });
    await expectEnumAsWhole(config, "linux");
  });

  it("reads the whole program when a type name does not resolve, even where no unresolved type reaches the mapper", async () => {
    const config = configOf({
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
    const config = configOf({
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

  /** The programs `extract` tries, leanest first, for a project of these files. */
  function leanLevels(config: ReturnType<typeof configOf>): Lean[] {
    const levels: Lean[] = [];
    extractionPrograms(config, [path.join(config.root, "tools.ts")], { lean: true }).read((_, lean) => {
      levels.push(lean);
      return { value: undefined, incomplete: lean !== false };
    });
    return levels;
  }

  it("reads the tools from a program with the ES5 library alone, with the same result as the whole program", async () => {
    const config = configOf({
      "tools.ts": `export enum Priority { Low = "low", High = "high" }
export interface Ticket { id: number; priority: Priority; createdAt: Date; tags: readonly string[] }
/** Finds tickets. */
export async function find(
  filter: Partial<Pick<Ticket, "priority" | "tags">>,
  counts: Record<Priority, number>,
): Promise<Omit<Ticket, "tags">[]> {
  return Object.keys(filter).length + Object.keys(counts).length ? [] : [];
}
`,
    });
    expect(leanLevels(config)).toStrictEqual(["es5", "types", false]);
    const lean = await extract(config);
    process.env.MCP_GEN_FULL_PROGRAM = "1";
    expect(await extract(config)).toStrictEqual(lean);
  });

  it("reads the project's libraries where a type reads a library type's members, with the same result", async () => {
    const config = configOf({
      "tools.ts": `/** Names a field of an error. */
export function field(name: keyof Error, at: Extract<keyof string, "at" | "length">): string {
  return name + at;
}
`,
    });
    expect(leanLevels(config)).toStrictEqual(["types", false]);
    const lean = await extract(config);
    const [name, at] = lean.servers[0]!.tools[0]!.params.map((p) => p.type as { values: unknown[] });
    expect(name!.values).toContain("cause");
    expect(at!.values).toContain("at");
    process.env.MCP_GEN_FULL_PROGRAM = "1";
    expect(await extract(config)).toStrictEqual(lean);
  });

  it("does not try ES5 alone for a module naming a later library's global, nor keeps a library object read from it", async () => {
    const map = configOf({
      "tools.ts": `const cache = new Map<string, number>();
/** Counts. */
export function count(key: string): number {
  return cache.get(key) ?? 0;
}
`,
    });
    expect(leanLevels(map)).toStrictEqual(["types", false]);
    // a host name: neither lean program resolves it, and ES5 alone is not even created
    expect(
      leanLevels(
        configOf({
          "tools.ts": "/** Opens. */\nexport function open_url(url: URL): string {\n  return url.href;\n}\n",
        }),
      ),
    ).toStrictEqual([false]);
    const inferred = configOf({
      "tools.ts": `/** Describes a property. */
export function describe_a() {
  return Object.getOwnPropertyDescriptor({ a: 1 }, "a")!;
}
`,
    });
    const lean = await extract(inferred).catch((e: McpGenError) => e.diagnostics.map(formatDiagnostic));
    process.env.MCP_GEN_FULL_PROGRAM = "1";
    expect(
      await extract(inferred).catch((e: McpGenError) => e.diagnostics.map(formatDiagnostic)),
    ).toStrictEqual(lean);
  });
});
