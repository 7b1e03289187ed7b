import path from "node:path";
import { formatDiagnostic, McpGenError } from "@mcp-gen/schema";
import { afterEach, describe, expect, it } from "vitest";
import { generate } from "../../src/build.ts";
import { parseOutput, startNativeCheck } from "../../src/extract/native-check.ts";
import { fixtureConfig, tempProject } from "../support/project.ts";

const ROOT = "/project";
const TOOLS = ["/project/src/a.ts", "/project/src/b.ts"];

describe("parseOutput (tsc --pretty false)", () => {
  it("keeps the errors of the tool modules, chained lines included, as MCPG010", () => {
    const out = [
      "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/lib.ts(1,1): error TS2304: Cannot find name 'x'.",
      "src/b.ts(10,12): error TS2345: Argument of type '{ a: string; }' is not assignable to parameter of type 'P'.",
      "  Types of property 'a' are incompatible.",
      "    Type 'string' is not assignable to type 'number'.",
      "",
    ].join("\n");
    expect(parseOutput(out, ROOT, TOOLS)?.map(formatDiagnostic)).toStrictEqual([
      [
        "error MCPG010: TS2322: Type 'string' is not assignable to type 'number'.",
        "  at src/a.ts:3:5",
        "  fix: fix the TypeScript error; the build only reads code that type-checks",
      ].join("\n"),
      [
        "error MCPG010: TS2345: Argument of type '{ a: string; }' is not assignable to parameter of type 'P'.",
        "  Types of property 'a' are incompatible.",
        "    Type 'string' is not assignable to type 'number'.",
        "  at src/b.ts:10:12",
        "  fix: fix the TypeScript error; the build only reads code that type-checks",
      ].join("\n"),
    ]);
  });

  it("finds nothing in empty output", () => {
    expect(parseOutput("", ROOT, TOOLS)).toStrictEqual([]);
  });

  it("leaves option and configuration errors, and unknown lines, to the in-process check", () => {
    const removed =
      "error TS5108: Option 'target=ES5' has been removed. Please remove it from your configuration.";
    expect(parseOutput(`${removed}\n`, ROOT, TOOLS)).toBeUndefined();
    expect(
      parseOutput("tsconfig.json(3,5): error TS5101: Option 'baseUrl' is deprecated.\n", ROOT, TOOLS),
    ).toBeUndefined();
    expect(parseOutput("Found 2 errors.\n", ROOT, TOOLS)).toBeUndefined();
  });
});

describe("type errors with and without the native check", () => {
  const dir = path.join(import.meta.dirname, "../errors/type-error");
  const saved = process.env.MCP_GEN_NATIVE_CHECK;
  afterEach(() => {
    if (saved === undefined) delete process.env.MCP_GEN_NATIVE_CHECK;
    else process.env.MCP_GEN_NATIVE_CHECK = saved;
  });

  const messages = async () => {
    const error = await generate(fixtureConfig(dir)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpGenError);
    return (error as McpGenError).diagnostics.map(formatDiagnostic);
  };

  it("runs TypeScript 7's tsc (this repository's type-checker) in a child process", async () => {
    const check = startNativeCheck(fixtureConfig(dir), [path.join(dir, "tools.ts")]);
    expect(check).toBeDefined();
    expect((await check!.result)?.map((d) => [d.message, d.location])).toStrictEqual([
      ["TS2322: Type 'string' is not assignable to type 'number'.", { file: "tools.ts", line: 3, column: 3 }],
    ]);
  });

  it("reports the same diagnostics in process (MCP_GEN_NATIVE_CHECK=0)", async () => {
    const native = await messages();
    process.env.MCP_GEN_NATIVE_CHECK = "0";
    expect(startNativeCheck(fixtureConfig(dir), [path.join(dir, "tools.ts")])).toBeUndefined();
    expect(await messages()).toStrictEqual(native);
  });
});

describe("the native check under the project's own tsconfig", () => {
  it("decides for a standard NodeNext tsconfig with an outDir (tsc's rootDir is its folder)", async () => {
    const dir = tempProject({
      "package.json": JSON.stringify({ type: "module" }),
      "tsconfig.json": JSON.stringify({
        compilerOptions: { module: "NodeNext", target: "ES2022", strict: true, outDir: "dist" },
        include: ["src"],
      }),
      "src/tools.ts":
        "/** Adds. */\nexport function add(a: number, b: number): number {\n  return a + b + '';\n}\n",
    });
    const config = {
      ...fixtureConfig(dir, { tools: ["src/tools.ts"] }),
      tsconfig: path.join(dir, "tsconfig.json"),
    };
    const check = startNativeCheck(config, [path.join(dir, "src/tools.ts")]);
    expect((await check!.result)?.map((d) => [d.message, d.location])).toStrictEqual([
      [
        "TS2322: Type 'string' is not assignable to type 'number'.",
        { file: "src/tools.ts", line: 3, column: 3 },
      ],
    ]);
  });
});
