import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ok, type Ran, REPO_ROOT, run } from "./run.ts";

/** The three packages, in dependency order. */
export const PACKAGES = ["schema", "runtime", "codegen"] as const;

interface Lockfile {
  packages: Record<string, { version?: string; link?: boolean }>;
}

/** The version of a package the repository installs (its package-lock.json), e.g. `"7.0.2"`. */
export function lockedVersion(name: string): string {
  const lock = JSON.parse(readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")) as Lockfile;
  const entry = lock.packages[`node_modules/${name}`];
  if (!entry?.version || entry.link) throw new Error(`package-lock.json has no installed version of ${name}`);
  return entry.version;
}

/**
 * The registry packages of the base consumer project, at the versions the repository is tested
 * with: `npm ci` of the repository put their tarballs in npm's cache.
 */
export function toolSpecs(): string[] {
  // The LLM SDKs (the runtime's optional peers) too: installed, a served server could load them.
  return ["typescript", "@types/node", "esbuild", "tsx", "vitest", "@anthropic-ai/sdk", "openai"].map(
    (n) => `${n}@${lockedVersion(n)}`,
  );
}

/**
 * Brings the packages' dist/ up to date (one `tsc -b`, as `prepack` would) and packs them into
 * `dest` without their scripts. Returns the tarballs' absolute paths, in `PACKAGES` order.
 */
export async function buildAndPack(dest: string): Promise<string[]> {
  mkdirSync(dest, { recursive: true });
  const tsc = path.join(REPO_ROOT, "node_modules/typescript/bin/tsc");
  await ok(process.execPath, [tsc, "-b", ...PACKAGES.map((p) => `packages/${p}`)], { cwd: REPO_ROOT });
  const workspaces = PACKAGES.flatMap((p) => ["-w", `packages/${p}`]);
  const packed = await ok(
    "npm",
    ["pack", "--ignore-scripts", "--json", "--pack-destination", dest, ...workspaces],
    { cwd: REPO_ROOT },
  );
  const made = JSON.parse(packed.stdout) as { name: string; filename: string }[];
  const files = PACKAGES.map((p) => {
    const info = made.find((m) => m.name === `@mcp-gen/${p}`);
    if (!info) throw new Error(`npm pack made no tarball of @mcp-gen/${p}:\n${packed.stdout}`);
    return path.join(dest, info.filename);
  });
  for (const file of files) if (!existsSync(file)) throw new Error(`npm pack did not write ${file}`);
  return files;
}

/** `--offline` in the tests; `--prefer-offline` where the cache is filled (fill-npm-cache.ts). */
export type NpmNetwork = "--offline" | "--prefer-offline";

const FILL = "node --import tsx packages/codegen/test/consumer/fill-npm-cache.ts";

/**
 * `npm install <args>` in a consumer project. Offline, a failure for want of cached data says why:
 * `npm install` of named packages asks the registry for full metadata (`Accept: application/json`),
 * while `npm ci` (packages resolved by the lockfile) caches only the abbreviated metadata.
 */
export async function npmInstall(
  cwd: string,
  args: readonly string[],
  network: NpmNetwork = "--offline",
  extra: readonly string[] = [],
): Promise<Ran> {
  const ran = await run("npm", ["install", network, "--no-audit", "--no-fund", ...extra, ...args], { cwd });
  if (ran.code !== 0 && /ENOTCACHED/.test(ran.stderr)) {
    throw new Error(
      `npm's cache lacks what this offline install needs. \`npm install\` of named packages reads the ` +
        `registry's full metadata, which \`npm ci\` does not cache: \`bash scripts/test.sh\` (or \`${FILL}\`, ` +
        `once, with network) fills it.\n${ran.shown}\n  in ${cwd}\n${ran.stderr.trim()}`,
    );
  }
  if (ran.code !== 0) throw new Error(`${ran.shown}\n  in ${cwd}\n  exited with ${ran.code}\n${ran.stderr}`);
  return ran;
}

/** `npm init -y` in a new folder, as a user starts a project. */
export async function npmInit(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await ok("npm", ["init", "-y"], { cwd: dir });
}
