import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./support/cli.ts";
import { tempProject } from "./support/project.ts";

const TOOLS = `import type { Int } from "@mcp-gen/runtime";

/**
 * Add two integers.
 * @param a First
 * @param b Second
 */
export function add(a: Int, b: Int = 1): Int {
  return a + b;
}
`;

const CONFIG = `import { defineConfig } from "@mcp-gen/codegen/config";
export default defineConfig({ servers: { calc: { tools: ["src/*.ts"] } } });
`;

/** Every file the build wrote, with its content. */
function outputs(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out[path.relative(dir, full)] = readFileSync(full, "utf8");
    }
  };
  for (const sub of ["schemas", "generated"]) if (existsSync(path.join(dir, sub))) walk(path.join(dir, sub));
  return out;
}

/** One cache folder per test, events reported on stderr. */
function cacheEnv(cacheDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, MCP_GEN_CACHE_DIR: cacheDir, MCP_GEN_CACHE_REPORT: "1" };
  delete env.MCP_GEN_NO_CACHE;
  return env;
}

/** A fresh build: the outputs of the last one are removed first. */
async function build(dir: string, env: NodeJS.ProcessEnv) {
  rmSync(path.join(dir, "schemas"), { recursive: true, force: true });
  rmSync(path.join(dir, "generated"), { recursive: true, force: true });
  const result = await runCli(["build"], dir, env);
  return { ...result, files: outputs(dir) };
}

function cacheFolder(cacheDir: string, prefix: "build-" | "build-code-"): string {
  const name = readdirSync(cacheDir).find(
    (n) =>
      n.startsWith(prefix) &&
      !n.includes(".tmp-") &&
      !n.endsWith(".seen") &&
      (prefix === "build-code-" || !n.startsWith("build-code-")),
  );
  if (!name) throw new Error(`no ${prefix} folder in ${cacheDir}`);
  return path.join(cacheDir, name);
}

describe("mcp-gen build's fast start (real CLI, cached bundle)", { timeout: 300_000 }, () => {
  it("writes the same files from the cached bundle as from source, and rebuilds a stale or broken cache", async () => {
    const dir = tempProject({ "mcp-gen.config.ts": CONFIG, "src/calc.ts": TOOLS });
    const cacheDir = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-build-cache-"));
    const env = cacheEnv(cacheDir);

    const reference = await build(dir, { ...env, MCP_GEN_NO_CACHE: "1" });
    expect(reference.code).toBe(0);
    expect(reference.stderr).toBe("");
    expect(readdirSync(cacheDir)).toStrictEqual([]);
    expect(Object.keys(reference.files)).toContain("schemas/calc.tools.json");

    // Cold: built from source; the first such build only notes that it ran, the second caches the bundle.
    const first = await build(dir, env);
    expect(first.stderr).toBe("mcp-gen: fast build start noted\n");
    expect([first.code, first.stdout, first.files]).toStrictEqual([0, reference.stdout, reference.files]);
    expect(readdirSync(cacheDir).some((n) => n.startsWith("build-") && !n.endsWith(".seen"))).toBe(false);
    const cold = await build(dir, env);
    expect(cold.stderr).toBe("mcp-gen: fast build start cached\n");
    expect([cold.code, cold.stdout, cold.files]).toStrictEqual([0, reference.stdout, reference.files]);

    // Warm: from the bundle (this first run writes the code cache of ts-morph's TypeScript, --check uses it).
    const warm = await build(dir, env);
    expect(warm.stderr).toBe("mcp-gen: fast build start from cache\n");
    expect([warm.code, warm.stdout, warm.files]).toStrictEqual([0, reference.stdout, reference.files]);
    const check = await runCli(["build", "--check"], dir, env);
    expect([check.code, check.stderr]).toStrictEqual([0, "mcp-gen: fast build start from cache\n"]);
    expect(check.stdout).toBe("mcp-gen: up to date (1 server, 1 tool)\n");

    // A changed input (here: its recorded mtime no longer matches) makes the cache stale.
    const bundleDir = cacheFolder(cacheDir, "build-");
    const metaFile = path.join(bundleDir, "meta.json");
    const meta = JSON.parse(readFileSync(metaFile, "utf8")) as { inputs: { mtimeMs: number }[] };
    expect(meta.inputs.length).toBeGreaterThan(10);
    meta.inputs[0] = { ...meta.inputs[0], mtimeMs: 1 } as { mtimeMs: number };
    writeFileSync(metaFile, JSON.stringify(meta));
    const stale = await build(dir, env);
    expect(stale.stderr).toBe("mcp-gen: fast build start cached\n");
    expect([stale.code, stale.stdout, stale.files]).toStrictEqual([0, reference.stdout, reference.files]);

    // A broken bundle falls back to the sources, and is replaced.
    writeFileSync(path.join(bundleDir, "main.cjs"), "this is not JavaScript");
    const broken = await build(dir, env);
    expect(broken.stderr).toMatch(
      /^mcp-gen: fast build start failed: .*\nmcp-gen: fast build start cached\n$/,
    );
    expect([broken.code, broken.stdout, broken.files]).toStrictEqual([0, reference.stdout, reference.files]);

    // A corrupt code cache is not used, and is written anew.
    const codeDir = cacheFolder(cacheDir, "build-code-");
    const codeFiles = readdirSync(codeDir).filter((n) => n.endsWith(".bin"));
    expect(codeFiles.length).toBeGreaterThan(0);
    const corrupted = new Map<string, Buffer>();
    for (const name of codeFiles) {
      const bytes = readFileSync(path.join(codeDir, name));
      bytes[bytes.length - 100] = (bytes[bytes.length - 100] ?? 0) ^ 0xff;
      writeFileSync(path.join(codeDir, name), bytes);
      corrupted.set(name, bytes);
    }
    const corrupt = await build(dir, env);
    expect(corrupt.stderr).toBe("mcp-gen: fast build start from cache\n");
    expect([corrupt.code, corrupt.stdout, corrupt.files]).toStrictEqual([
      0,
      reference.stdout,
      reference.files,
    ]);
    const rewritten = codeFiles.filter(
      (name) => !readFileSync(path.join(codeDir, name)).equals(corrupted.get(name) ?? Buffer.alloc(0)),
    );
    expect(rewritten).toStrictEqual(codeFiles);

    // A cache folder other users can write to is not used (nor written).
    chmodSync(cacheDir, 0o777);
    const shared = await build(dir, env);
    expect(shared.stderr).toMatch(
      /^mcp-gen: fast build start failed: .* is not only this user's: not used\nmcp-gen: fast build start not cached: .* is not only this user's\n$/,
    );
    expect([shared.code, shared.stdout, shared.files]).toStrictEqual([0, reference.stdout, reference.files]);
  });
});
