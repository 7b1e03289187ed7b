import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleOwnPackages } from "../../src/serve/bundle-packages.ts";

let root: string;
/** Writes `files` (relative path → content) under the fixture root. */
function write(files: Record<string, string>): void {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "mcp-gen-bundle-packages-")));
  const pkg = (name: string, source: string) => ({
    [`node_modules/${name}/package.json`]: JSON.stringify({ name, type: "module", main: "index.js" }),
    [`node_modules/${name}/index.js`]: source,
  });
  write({
    // "own" stands for mcp-gen's packages, "tools" for the user's tool modules.
    "own/serve.js": [
      'export { pure } from "pure";',
      'export { comment } from "commented";',
      'export { dir } from "finds-files";',
      'export { shared } from "shared";',
      'export { scoped } from "@scope/deep";',
    ].join("\n"),
    "tools/tool.js": 'export { shared as fromTool } from "shared";\nexport { other } from "tool-only";',
    ...pkg("pure", 'export { inner as pure } from "inner";'),
    ...pkg("inner", "export const inner = 1;"),
    ...pkg(
      "commented",
      "// mentions __dirname and import.meta.url in a comment only\nexport const comment = 2;",
    ),
    ...pkg("finds-files", "export const dir = new URL('.', import.meta.url).href;"),
    ...pkg("shared", "export const shared = 3;"),
    ...pkg("tool-only", "export const other = 4;"),
    ...pkg("@scope/deep", "export const scoped = 5;"),
  });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Builds own + tools; returns the packages compiled in and the ones left for Node to import. */
async function bundle(): Promise<{ bundled: string[]; external: string[] }> {
  const result = await bundleOwnPackages({
    esbuild,
    own: [path.join(root, "own")],
    build: (plugin) =>
      esbuild.build({
        stdin: {
          contents: 'export * from "./own/serve.js";\nexport * from "./tools/tool.js";',
          resolveDir: root,
        },
        bundle: true,
        format: "esm",
        platform: "node",
        write: false,
        metafile: true,
        logLevel: "silent",
        plugins: [plugin],
      }),
  });
  const names = (files: string[]) =>
    [
      ...new Set(
        files.flatMap((f) => {
          const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(f);
          return m ? [m[1]!] : [];
        }),
      ),
    ].sort();
  const output = Object.values(result.metafile.outputs)[0]!;
  return {
    bundled: names(Object.keys(result.metafile.inputs)),
    external: names(output.imports.filter((i) => i.external).map((i) => i.path)),
  };
}

describe("the installed packages the fast-start bundle compiles in", () => {
  it("bundles what mcp-gen's code needs, and leaves the tools' packages and file finders to Node", async () => {
    expect(await bundle()).toStrictEqual({
      bundled: ["@scope/deep", "commented", "inner", "pure"],
      external: ["finds-files", "shared", "tool-only"],
    });
  });
});
