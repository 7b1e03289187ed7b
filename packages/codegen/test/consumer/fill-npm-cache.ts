/**
 * Makes npm's cache hold what the consumer matrix (matrix.test.ts) installs offline; scripts/test.sh
 * runs it before the suite: `node --import tsx packages/codegen/test/consumer/fill-npm-cache.ts`.
 *
 * `npm ci` of the repository caches the locked tarballs and at most the registry's abbreviated
 * metadata (the lockfile resolves every version), whereas `npm install <name@version>` in a new
 * project asks for the full metadata (`Accept: application/json`), which is then missing: the
 * offline install fails with ENOTCACHED. So: an offline dry run of the base project's install (the
 * init scenario installs a subset of it, at the same versions) says whether the cache is complete;
 * when it is not, one install with `--prefer-offline` fetches what is missing, once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildAndPack, npmInit, npmInstall, toolSpecs } from "./packages.ts";

const tmp = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-npm-cache-"));
try {
  const tarballs = await buildAndPack(path.join(tmp, "tarballs"));
  const specs = [...tarballs, ...toolSpecs()];
  let projects = 0;
  const project = async () => {
    const dir = path.join(tmp, `project-${++projects}`);
    await npmInit(dir);
    return dir;
  };
  const complete = async () => {
    try {
      await npmInstall(await project(), specs, "--offline", ["--dry-run"]);
      return true;
    } catch {
      return false;
    }
  };
  if (await complete()) {
    console.log("fill-npm-cache: npm's cache holds what the consumer tests install");
  } else {
    console.log("fill-npm-cache: fetching the registry metadata the consumer tests' offline installs need");
    await npmInstall(await project(), specs, "--prefer-offline");
    if (!(await complete())) throw new Error("npm's cache still lacks what the consumer tests install");
    console.log("fill-npm-cache: done");
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
