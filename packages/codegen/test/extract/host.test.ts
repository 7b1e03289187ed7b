import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ts } from "ts-morph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tsMorphLibFiles } from "../../lib/ts-morph.js";
import { libCacheFolder, libFiles } from "../../src/extract/lib-files.ts";
import { createExtractionProgram } from "../../src/extract/program.ts";
import { createProject } from "../../src/extract/project.ts";
import { fixtureConfig, tempProject } from "../support/project.ts";

const TOOLS = `import type { Unit } from "./units.ts";

/** Converts. */
export async function convert(value: number, unit: Unit = "m", at?: Date): Promise<{ value: number; unit: Unit }> {
  return { value, unit: at ? unit : "m" };
}

export const keys: Array<keyof Partial<Record<Unit, string>>> = [];
`;
const UNITS = 'export type Unit = "m" | "km";\n';

/** What a program is made of and what it says about the tools, with library files by base name. */
function summary(program: ts.Program, libFolder: string) {
  const file = program.getSourceFiles().find((f) => f.fileName.endsWith("/tools.ts"))!;
  const checker = program.getTypeChecker();
  const types = file.statements.map((s) => checker.typeToString(checker.getTypeAtLocation(s)));
  return {
    files: program
      .getSourceFiles()
      .map((f) => (f.fileName.startsWith(`${libFolder}/`) ? path.basename(f.fileName) : f.fileName)),
    options: program.getCompilerOptions(),
    types,
    diagnostics: program.getSemanticDiagnostics(file).map((d) => d.messageText),
  };
}

/** The program ts-morph's `Project` made from the same options and files (how the extraction made it before). */
function tsMorphProgram(
  config: ReturnType<typeof fixtureConfig>,
  files: string[],
  extra: ts.CompilerOptions,
) {
  const project = createProject(config);
  project.compilerOptions.set(extra);
  for (const f of files) project.addSourceFileAtPath(f);
  return project.getProgram().compilerObject;
}

describe("the extraction's programs without ts-morph's project", () => {
  const saved = process.env.NODE_COMPILE_CACHE;
  let cache: string;
  beforeEach(() => {
    cache = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-lib-cache-"));
    process.env.NODE_COMPILE_CACHE = cache;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.NODE_COMPILE_CACHE;
    else process.env.NODE_COMPILE_CACHE = saved;
    delete process.env.NODE_DISABLE_COMPILE_CACHE;
    rmSync(cache, { recursive: true, force: true });
  });

  it.each([
    [
      "a tsconfig with lib ES2022 and no type packages, the ES5 program",
      true,
      { lib: ["ES2022"], types: [] },
    ],
    [
      "a tsconfig with lib ES2022 and no type packages, the whole program",
      false,
      { lib: ["ES2022"], types: [] },
    ],
    ["a tsconfig with the defaults (DOM, @types/node), the whole program", false, {}],
  ])("gives the program ts-morph's project gave: %s", (_, es5, compilerOptions) => {
    const dir = tempProject({
      "tsconfig.json": JSON.stringify({
        compilerOptions: { strict: true, module: "NodeNext", ...compilerOptions },
      }),
      "tools.ts": TOOLS,
      "units.ts": UNITS,
    });
    const config = {
      ...fixtureConfig(dir, { tools: ["tools.ts"] }),
      tsconfig: path.join(dir, "tsconfig.json"),
    };
    const files = [path.join(dir, "tools.ts")];
    const ours = createExtractionProgram(
      config,
      files,
      es5 ? { withoutGlobalTypes: true, es5Lib: true } : {},
    );
    const extra = es5 ? { types: [], lib: ["lib.es5.d.ts"] } : {};
    const before = summary(tsMorphProgram(config, files, extra), "/node_modules/typescript/lib");
    const after = summary(ours, libCacheFolder());
    expect(after).toStrictEqual(before);
    expect(after.files).toContain(es5 ? "lib.es5.d.ts" : "lib.es2022.d.ts");
    expect(after.files).toContain(path.join(dir, "units.ts"));
  });

  it("writes the library files once to a folder keyed by versions, and reads only what a program names", () => {
    const embedded = new Map(tsMorphLibFiles().map((f) => [f.fileName, f.text]));
    const libs = libFiles();
    expect(libs.folder).toBe(libCacheFolder());
    expect(libs.folder.startsWith(path.join(cache, "mcp-gen-ts-lib"))).toBe(true);
    expect(readdirSync(libs.folder).length).toBe(embedded.size + 1);
    expect(libs.text("lib.es5.d.ts")).toBe(embedded.get("lib.es5.d.ts"));
    expect(libs.text("lib.nothing.d.ts")).toBeUndefined();
    // no temporary folder left behind
    expect(readdirSync(path.dirname(libs.folder))).toStrictEqual([path.basename(libs.folder)]);
  });

  it("falls back to the embedded texts when a cached file was cut short or removed", () => {
    const embedded = new Map(tsMorphLibFiles().map((f) => [f.fileName, f.text]));
    const folder = libFiles().folder;
    writeFileSync(path.join(folder, "lib.es5.d.ts"), "declare var cut: number;\n");
    rmSync(path.join(folder, "lib.es2015.d.ts"));
    const libs = libFiles();
    expect(libs.text("lib.es5.d.ts")).toBe(embedded.get("lib.es5.d.ts"));
    expect(libs.text("lib.es2015.d.ts")).toBe(embedded.get("lib.es2015.d.ts"));
  });

  it("serves the embedded texts when the folder cannot be written", () => {
    const file = path.join(cache, "a-file");
    writeFileSync(file, "");
    process.env.NODE_COMPILE_CACHE = path.join(file, "below");
    const libs = libFiles();
    expect(libs.text("lib.es5.d.ts")).toBe(
      tsMorphLibFiles().find((f) => f.fileName === "lib.es5.d.ts")?.text,
    );
    expect(readdirSync(cache)).toStrictEqual(["a-file"]);
  });

  it("writes nothing with NODE_DISABLE_COMPILE_CACHE set, and still serves the texts", () => {
    process.env.NODE_DISABLE_COMPILE_CACHE = "1";
    const libs = libFiles();
    expect(libs.text("lib.es5.d.ts")).toBe(
      tsMorphLibFiles().find((f) => f.fileName === "lib.es5.d.ts")?.text,
    );
    expect(existsSync(path.join(cache, "mcp-gen-ts-lib"))).toBe(false);
  });
});
