import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveTypeScriptSibling } from "../../src/load/import-module.ts";
import { node22 } from "../consumer/project.ts";
import { REPO_ROOT } from "../support/project.ts";

const notFound = (specifier: string) =>
  Object.assign(new Error(`Cannot find module '${specifier}'`), { code: "ERR_MODULE_NOT_FOUND" });

/** A resolver that knows only `files`: what Node's default resolution would find. */
function resolverOf(files: string[]) {
  const asked: string[] = [];
  const next = (specifier: string) => {
    asked.push(specifier);
    if (!files.includes(specifier)) throw notFound(specifier);
    return { url: `file:///p/${specifier}` };
  };
  return { asked, resolve: (specifier: string) => resolveTypeScriptSibling(specifier, {}, next) };
}

describe("resolveTypeScriptSibling: NodeNext's .js specifiers of .ts files, under Node's type stripping", () => {
  it("tries the TypeScript sibling of a relative or absolute .js, .mjs or .cjs specifier Node did not find", () => {
    const { asked, resolve } = resolverOf(["./a.ts", "../b.mts", "/abs/c.cts", "./d.js"]);
    expect(resolve("./a.js").url).toBe("file:///p/./a.ts");
    expect(resolve("../b.mjs").url).toBe("file:///p/../b.mts");
    expect(resolve("/abs/c.cjs").url).toBe("file:///p//abs/c.cts");
    expect(resolve("./d.js").url).toBe("file:///p/./d.js");
    expect(asked).toStrictEqual([
      "./a.js",
      "./a.ts",
      "../b.mjs",
      "../b.mts",
      "/abs/c.cjs",
      "/abs/c.cts",
      "./d.js",
    ]);
  });

  it("leaves package specifiers, other errors and missing siblings as Node reported them", () => {
    const { asked, resolve } = resolverOf([]);
    expect(() => resolve("pkg/x.js")).toThrow("Cannot find module 'pkg/x.js'");
    expect(() => resolve("./missing.js")).toThrow("Cannot find module './missing.js'");
    expect(asked).toStrictEqual(["pkg/x.js", "./missing.js", "./missing.ts"]);
    const other = () =>
      resolveTypeScriptSibling("./a.js", {}, () => {
        throw Object.assign(new Error("denied"), { code: "ERR_ACCESS_DENIED" });
      });
    expect(other).toThrow("denied");
  });
});

describe("importModule: the user's TypeScript through Node's type stripping where it can, else tsx", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-import-"));
  const files = {
    "package.json": '{ "type": "module" }\n',
    // A NodeNext project: `.js` specifiers of `.ts` files, as generated code imports them.
    "entry.ts": 'import { twice } from "./math.js";\nexport const value: number = twice(21);\n',
    "math.ts": "export function twice(n: number): number {\n  return n * 2;\n}\n",
    // An enum: syntax type stripping does not take.
    "enum.ts": "export enum Mode {\n  A = 1,\n}\nexport const value: number = Mode.A;\n",
    "probe.mjs": `import { importModule, typeScriptLoader } from ${JSON.stringify(
      path.join(REPO_ROOT, "packages/codegen/dist/load/import-module.js"),
    )};
const entry = await importModule(process.argv[2] + "/entry.ts");
const first = typeScriptLoader();
const withEnum = await importModule(process.argv[2] + "/enum.ts");
console.log(JSON.stringify({ entry: [entry.value, first], withEnum: [withEnum.value, typeScriptLoader()] }));
`,
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  const probe = (node: string, env: Record<string, string> = {}) => {
    const run = spawnSync(node, [path.join(dir, "probe.mjs"), dir], {
      encoding: "utf8",
      env: { ...process.env, ...env },
    });
    expect(run.stderr).toBe("");
    return JSON.parse(run.stdout) as unknown;
  };

  it("loads a NodeNext graph with Node 22's own type stripping, and an enum through tsx", () => {
    expect(probe(node22())).toStrictEqual({ entry: [42, "node"], withEnum: [1, "tsx"] });
  });

  it("keeps what type stripping made of each file by content, and serves it on the next start (Node 22)", () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-strip-"));
    const cache = path.join(tmp, "mcp-gen-strip-cache");
    expect(probe(node22(), { TMPDIR: tmp })).toStrictEqual({ entry: [42, "node"], withEnum: [1, "tsx"] });
    // entry.ts and math.ts stripped and kept; enum.ts, which stripping refuses, went to tsx
    const kept = readdirSync(cache);
    expect(kept.map((f) => path.extname(f))).toStrictEqual([".js", ".js"]);
    // The next start reads the kept files: proven by changing what one of them holds.
    const math = kept.find((f) => readFileSync(path.join(cache, f), "utf8").includes("twice(n"))!;
    writeFileSync(path.join(cache, math), "export function twice(n) {\n  return n * 3;\n}\n");
    expect(probe(node22(), { TMPDIR: tmp })).toStrictEqual({ entry: [63, "node"], withEnum: [1, "tsx"] });
    expect(probe(node22(), { TMPDIR: tmp, MCP_GEN_NO_CACHE: "1" })).toStrictEqual({
      entry: [42, "node"],
      withEnum: [1, "tsx"],
    });
  });

  it("loads both through tsx on a Node without type stripping (this Node 20)", () => {
    expect(process.features).not.toHaveProperty("typescript");
    expect(probe(process.execPath)).toStrictEqual({ entry: [42, "tsx"], withEnum: [1, "tsx"] });
  });
});
