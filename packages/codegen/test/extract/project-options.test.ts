import path from "node:path";
import { Project } from "ts-morph";
import { describe, expect, it } from "vitest";
import { createProject } from "../../src/extract/project.ts";
import { fixtureConfig, tempProject } from "../support/project.ts";

const ROOT = path.resolve(import.meta.dirname, "../../../..");

/** The options ts-morph itself reads from the tsconfig (it also walks the included folders). */
function tsMorphOptions(tsconfig: string) {
  return new Project({
    tsConfigFilePath: tsconfig,
    skipAddingFilesFromTsConfig: true,
    compilerOptions: { strictNullChecks: true, noEmit: true },
  }).compilerOptions.get();
}

function projectOptions(dir: string, tsconfig: string) {
  return createProject({ ...fixtureConfig(dir), tsconfig }).compilerOptions.get();
}

describe("the extraction project takes the tsconfig's options without listing its files", () => {
  it("gives ts-morph's options for the repository's tsconfigs (extends, paths, references)", () => {
    for (const file of [
      "tsconfig.json",
      "packages/codegen/tsconfig.json",
      "packages/runtime/tsconfig.json",
    ]) {
      const tsconfig = path.join(ROOT, file);
      expect(projectOptions(path.dirname(tsconfig), tsconfig)).toStrictEqual(tsMorphOptions(tsconfig));
    }
  });

  it("gives ts-morph's options for a project with extends, baseUrl, paths, rootDir and include globs", () => {
    const dir = tempProject({
      "base.json": JSON.stringify({ compilerOptions: { strict: true, lib: ["ES2022"], types: [] } }),
      "tsconfig.json": JSON.stringify({
        extends: "./base.json",
        compilerOptions: {
          module: "NodeNext",
          target: "ES2022",
          outDir: "dist",
          rootDir: "src",
          baseUrl: ".",
          paths: { "#x/*": ["src/x/*"] },
        },
        include: ["src/**/*", "generated"],
      }),
      "src/tools.ts": "export function f(a: string): string {\n  return a;\n}\n",
    });
    const tsconfig = path.join(dir, "tsconfig.json");
    expect(projectOptions(dir, tsconfig)).toStrictEqual(tsMorphOptions(tsconfig));
  });

  it("leaves a tsconfig with problems to ts-morph, as before", () => {
    const dir = tempProject({
      "tsconfig.json": JSON.stringify({ compilerOptions: { target: "ES1999" } }),
      "tools.ts": "export {};\n",
    });
    const tsconfig = path.join(dir, "tsconfig.json");
    expect(projectOptions(dir, tsconfig)).toStrictEqual(tsMorphOptions(tsconfig));
  });
});
