import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { node22 } from "../consumer/project.ts";

const LIB = pathToFileURL(path.resolve(import.meta.dirname, "../../lib/ts-morph.js")).href;

/**
 * A Node 22 process (the compile cache needs 22.1+) that turns the compile cache on in `dir` as the
 * bin does, loads `lib/ts-morph.js`, type-checks a line, then loads ts-morph itself.
 */
async function load(dir: string) {
  const script = `import module from "node:module";
import { createRequire } from "node:module";
module.enableCompileCache(${JSON.stringify(dir)});
const { ts } = await import(${JSON.stringify(LIB)});
const file = ts.createSourceFile("a.ts", "const a: number = 1;", ts.ScriptTarget.ES2022);
const tsMorph = createRequire(${JSON.stringify(LIB)})("ts-morph");
console.log(JSON.stringify({
  version: ts.version,
  statements: file.statements.length,
  sameTypeScript: tsMorph.ts.createProgram === ts.createProgram,
  folder: module.getCompileCacheDir(),
}));
`;
  const { stdout } = await promisify(execFile)(node22(), ["--input-type=module", "-e", script]);
  return JSON.parse(stdout) as {
    version: string;
    statements: number;
    sameTypeScript: boolean;
    folder: string;
  };
}

describe("TypeScript's code cached after a run, in the compile cache's folder", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-ts-cache-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const cacheFile = (folder: string) => {
    const names = readdirSync(folder).filter((f) => /^mcp-gen-typescript-.*\.cache$/.test(f));
    expect(names).toHaveLength(1);
    return path.join(folder, names[0]!);
  };

  it("is written by the first process, used as is by the next, and written again when V8 rejects it", async () => {
    const first = await load(dir);
    expect(first).toMatchObject({ statements: 1, sameTypeScript: true });
    const file = cacheFile(first.folder);
    const written = statSync(file);
    expect(written.size).toBeGreaterThan(1_000_000);

    // accepted: not written again
    expect(await load(dir)).toStrictEqual(first);
    expect(statSync(file).mtimeMs).toBe(written.mtimeMs);

    // data V8 rejects (another source, a cut file): TypeScript still loads, and the file is replaced
    writeFileSync(file, readFileSync(file).subarray(0, 1000));
    expect(await load(dir)).toStrictEqual(first);
    expect(statSync(file).size).toBeGreaterThan(1_000_000);
    expect(readdirSync(first.folder).filter((f) => f.endsWith(".tmp"))).toStrictEqual([]);
  });
});
