/**
 * A fresh npm project outside the repository (under os.tmpdir()) with mcp-gen installed from its
 * tarballs, as a user installs it: `npm init -y`, `"type": "module"`, `npm install <tarballs>` plus
 * typescript and @types/node at the versions of the ref's root package.json, and the peer of the
 * serve cold start — the SDK v2's `@modelcontextprotocol/server` and zod 4 (installed as `zod`, at
 * the version of the root's `zod4` alias) — at the root's versions, the checkout's own where the
 * ref's root lacks them (refs before the SDK v2), so that every project runs the same peer.
 * Nothing resolves through the repository's workspace links: the lockfile is checked to take every
 * `@mcp-gen/*` package from a tarball, with no nested copy.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DistinctCorpus } from "../corpus-distinct.ts";
import type { Packed } from "./tarballs.ts";

export const NODE = process.execPath;

export interface Project {
  packed: Packed;
  root: string;
  /** The installed CLI: node_modules/@mcp-gen/codegen/bin/mcp-gen.js. */
  bin: string;
  /** Installed versions of the packages the figures depend on. */
  versions: Record<string, string>;
  /** True when the installed CLI has the start-up caches (bin/build-cache.js) that MCP_GEN_NO_CACHE turns off. */
  hasCaches: boolean;
  /** True when the installed runtime is on the SDK v2 (`@modelcontextprotocol/server`): it serves 2026-07-28 too. */
  serves2026: boolean;
}

const npm = (cwd: string, args: string[]) =>
  execFileSync("npm", args, { cwd, encoding: "utf8", stdio: "pipe", maxBuffer: 64 * 1024 * 1024 });

/** Packages installed beside the tarballs: the name in the project, and its key in the root's devDependencies. */
const EXTRA: { name: string; key: string }[] = [
  { name: "typescript", key: "typescript" },
  { name: "@types/node", key: "@types/node" },
  { name: "@modelcontextprotocol/server", key: "@modelcontextprotocol/server" },
  { name: "zod", key: "zod4" },
];

/** A devDependency's version: `4.6.7`, or the version of an alias (`npm:zod@4.6.7`). */
const versionOf = (spec: string | undefined) => spec?.replace(/^npm:(@[^/]+\/)?[^@]+@/, "");

export function installedVersion(root: string, name: string): string {
  const file = path.join(root, "node_modules", name, "package.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

/** Creates and installs the project of one packed ref; `fallback` gives versions its root lacks. */
export function createProject(packed: Packed, fallback: Record<string, string>): Project {
  const safe = packed.key.replace(/[^\w.-]/g, "_");
  const root = mkdtempSync(path.join(os.tmpdir(), `mcp-gen-installed-${safe}-`));
  process.stderr.write(`installing ${packed.ref} (${packed.key}) into ${root}\n`);
  npm(root, ["init", "-y"]);
  npm(root, ["pkg", "set", "type=module"]);
  // As the repository's root allows it: esbuild's postinstall (tsx's dependency) runs.
  npm(root, ["pkg", "set", "allowScripts.esbuild=true", "--json"]);
  const extra = EXTRA.map(({ name, key }) => {
    const version = versionOf(packed.rootDevDependencies[key] ?? fallback[key]);
    if (!version) throw new Error(`no version of ${key} in the root package.json`);
    return `${name}@${version}`;
  });
  try {
    npm(root, ["install", "--no-audit", "--no-fund", "--save-exact", ...packed.tarballs, ...extra]);
    checkFromTarballs(root);
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  const versions: Record<string, string> = {};
  for (const name of [
    "@modelcontextprotocol/server",
    "@modelcontextprotocol/sdk",
    "zod",
    "typescript",
    "tsx",
    "ts-morph",
  ]) {
    try {
      versions[name] = installedVersion(root, name);
    } catch {
      // not installed (e.g. tsx in a version that loads TypeScript without it)
    }
  }
  const codegen = path.join(root, "node_modules/@mcp-gen/codegen");
  let hasCaches = false;
  try {
    readFileSync(path.join(codegen, "bin/build-cache.js"));
    hasCaches = true;
  } catch {}
  const runtime = JSON.parse(
    readFileSync(path.join(root, "node_modules/@mcp-gen/runtime/package.json"), "utf8"),
  );
  const serves2026 = Boolean(runtime.dependencies?.["@modelcontextprotocol/server"]);
  return { packed, root, bin: path.join(codegen, "bin/mcp-gen.js"), versions, hasCaches, serves2026 };
}

/** Every `@mcp-gen/*` package comes from a tarball (`file:`), once, at the top of node_modules. */
function checkFromTarballs(root: string): void {
  const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as {
    packages: Record<string, { resolved?: string }>;
  };
  const ours = Object.entries(lock.packages).filter(([key]) => key.includes("node_modules/@mcp-gen/"));
  const bad = ours.filter(
    ([key, entry]) => !/^node_modules\/@mcp-gen\/[^/]+$/.test(key) || !entry.resolved?.startsWith("file:"),
  );
  if (ours.length !== 3 || bad.length > 0) {
    throw new Error(`@mcp-gen packages not installed from the tarballs alone: ${JSON.stringify(ours)}`);
  }
}

/** A standard tsconfig of a Node project: NodeNext, strict, compiled into dist/. */
export const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    skipLibCheck: true,
    outDir: "dist",
  },
  include: ["tools", "generated", "src"],
};

/** Copies a corpus's tool modules and config into `<project>/<name>/` with the standard tsconfig (or the corpus's own). */
export function addCorpus(project: Project, corpus: DistinctCorpus, name: string): string {
  const dir = path.join(project.root, name);
  cpSync(path.join(corpus.root, "tools"), path.join(dir, "tools"), { recursive: true });
  cpSync(corpus.config, path.join(dir, "mcp-gen.config.ts"));
  if (corpus.ownTsconfig) cpSync(corpus.tsconfig, path.join(dir, "tsconfig.json"));
  else writeFileSync(path.join(dir, "tsconfig.json"), `${JSON.stringify(TSCONFIG, null, 2)}\n`);
  return dir;
}

/** The production entry of a server: the runtime's `serve` and the generated manifest. */
export function writeServerEntry(dir: string, server: string): void {
  mkdirSync(path.join(dir, "src"), { recursive: true });
  writeFileSync(
    path.join(dir, "src/server.ts"),
    [
      'import { serve } from "@mcp-gen/runtime/server";',
      `import { manifest } from "../generated/${server}/server.js";`,
      "",
      "await serve(manifest);",
      "",
    ].join("\n"),
  );
}

/** Runs a command to its end in `cwd`; its status and output. */
export function runQuiet(argv: string[], cwd: string, env?: Record<string, string>) {
  const child = spawnSync(argv[0]!, argv.slice(1), {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env },
  });
  return { status: child.status, output: `${child.stdout}${child.stderr}` };
}
