import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { build } from "../../src/build.ts";
import { tempProject } from "../support/project.ts";
import { COMPILERS, type Compiler, runTsc, STRICT_FLAGS } from "../support/tsc.ts";

const TOOLS = `import type { Int } from "@mcp-gen/runtime";

/**
 * Add two integers.
 * @param a First
 * @param b Second
 */
export function add(a: Int, b: Int = 1): Int {
  return a + b;
}

/** Greets someone. */
export function greet(person: { name: string; polite?: boolean }): string {
  return person.polite ? \`Good day, \${person.name}\` : \`Hi \${person.name}\`;
}
`;

/**
 * The tsconfig \`tsc --init\` (TypeScript 5.9) writes, emitting into dist/, with the remaining strict
 * flags: no \`allowImportingTsExtensions\`, so generated code must import \`.js\` specifiers.
 */
const TSCONFIG = {
  compilerOptions: {
    module: "nodenext",
    target: "esnext",
    types: [],
    declaration: true,
    skipLibCheck: true,
    moduleDetection: "force",
    noUncheckedSideEffectImports: true,
    ...STRICT_FLAGS,
    rootDir: ".",
    outDir: "dist",
  },
  include: ["src", "generated"],
};

describe("a NodeNext project that emits JavaScript", { timeout: 120_000 }, () => {
  it("gets .js imports, type-checks with TypeScript 5 and 7, and runs from its outDir", async () => {
    const dir = tempProject({
      "package.json": '{ "type": "module", "private": true }\n',
      "tsconfig.json": JSON.stringify(TSCONFIG, null, 2),
      "mcp-gen.config.json": '{ "servers": { "calc": { "tools": ["src/tools.ts"] } } }\n',
      "src/tools.ts": TOOLS,
    });
    await build({ cwd: dir });
    const server = readFileSync(path.join(dir, "generated/calc/server.ts"), "utf8");
    expect(server.split("\n").filter((l) => l.startsWith("import"))).toStrictEqual([
      'import { defineManifest, type ServerManifest } from "@mcp-gen/runtime/server";',
      'import * as srcTools from "../../src/tools.js";',
      'import { validators } from "./index.js";',
      'import { tools } from "./tools.js";',
    ]);

    const checks = (Object.keys(COMPILERS) as Compiler[]).map(async (compiler) => {
      const project = path.join(dir, `tsconfig.${compiler.replace(" ", "-")}.json`);
      writeFileSync(
        project,
        JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { noEmit: true } }),
      );
      const errors = await runTsc(compiler, project);
      return [
        compiler,
        errors.map((e) => `${e.file ? `${path.relative(dir, e.file)}:${e.line} ` : ""}${e.text}`),
      ] as const;
    });
    expect(Object.fromEntries(await Promise.all(checks))).toStrictEqual({
      "typescript 5": [],
      "typescript 7": [],
    });

    // Everything generated is TypeScript: the project's own tsc emits all of it (no allowJs).
    expect(await runTsc("typescript 7", path.join(dir, "tsconfig.json"))).toStrictEqual([]);
    const built = await import(pathToFileURL(path.join(dir, "dist/generated/calc/server.js")).href);
    const add = built.manifest.tools.find(
      (t: { definition: { name: string } }) => t.definition.name === "add",
    );
    expect(add.input.check({ a: 2 })).toStrictEqual({ ok: true, value: { a: 2 } });
    expect(await add.invoke({ a: 2, b: 3 })).toBe(5);
    rmSync(dir, { recursive: true, force: true });
  });
});
