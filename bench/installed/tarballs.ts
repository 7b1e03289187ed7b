/**
 * The tarballs `npm pack` makes of mcp-gen's three packages, from this checkout's working tree or
 * at a git ref, cached under bench/results/refs/<key>/tarballs so that reruns are quick. A ref is
 * extracted with `git archive` into bench/results/refs/<key>/src (no worktree to clean up); when
 * its packages have a `prepack` (a build of dist/), `npm ci --ignore-scripts` runs there first, and
 * `npm pack` runs the prepack. The extracted tree is deleted once the tarballs are made.
 */
import { execFileSync, execSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

export const PACKAGES = ["schema", "runtime", "codegen"] as const;

/** What a package's tarball is made of (tests and fixtures are not): its state decides the cache key. */
const PACKED_SOURCES = PACKAGES.flatMap((name) =>
  ["src", "bin", "package.json", "tsconfig.json", "README.md", "LICENSE"].map((f) => `packages/${name}/${f}`),
);

export interface Packed {
  /** What was packed: "working tree" or the ref as given. */
  ref: string;
  /** Short commit id, with `+<hash>` when the working tree's packages/ has uncommitted changes. */
  key: string;
  /** The commit's subject line. */
  subject: string;
  tarballs: string[];
  /** devDependencies of the ref's root package.json (typescript, @types/node, zod for the projects). */
  rootDevDependencies: Record<string, string>;
}

const run = (cwd: string, file: string, args: string[]) =>
  execFileSync(file, args, { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024, stdio: "pipe" }).trim();

const git = (root: string, ...args: string[]) => run(root, "git", args);

/** `npm pack` of each package under `packagesDir` into `dest`; returns the tarballs. */
function packAll(packagesDir: string, dest: string): string[] {
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  for (const name of PACKAGES) {
    process.stderr.write(`  npm pack packages/${name}\n`);
    run(path.join(packagesDir, name), "npm", ["pack", "--pack-destination", dest]);
  }
  const files = readdirSync(dest).filter((f) => f.endsWith(".tgz"));
  if (files.length !== PACKAGES.length) throw new Error(`expected ${PACKAGES.length} tarballs in ${dest}`);
  return files.map((f) => path.join(dest, f)).sort();
}

function cached(dir: string): Packed | undefined {
  const meta = path.join(dir, "meta.json");
  if (!existsSync(meta)) return undefined;
  const packed = JSON.parse(readFileSync(meta, "utf8")) as Packed;
  return packed.tarballs.every((t) => existsSync(t)) ? packed : undefined;
}

function save(dir: string, packed: Packed): Packed {
  writeFileSync(path.join(dir, "meta.json"), `${JSON.stringify(packed, null, 2)}\n`);
  return packed;
}

/**
 * Packs packages/* of the checkout at `root` as they are on disk (uncommitted changes included).
 * The cache key is HEAD's id plus, when the packed sources (src, bin, package.json … of each
 * package) differ from HEAD, a hash of that diff and of their untracked files.
 */
export function packWorkingTree(root: string, refsDir: string): Packed {
  const sha = git(root, "rev-parse", "--short", "HEAD");
  const dirty = git(root, "status", "--porcelain", "--", ...PACKED_SOURCES);
  let key = sha;
  if (dirty) {
    const hash = createHash("sha256").update(git(root, "diff", "HEAD", "--", ...PACKED_SOURCES));
    const untracked = git(root, "ls-files", "--others", "--exclude-standard", "--", ...PACKED_SOURCES);
    for (const file of untracked.split("\n").filter(Boolean)) {
      hash.update(file).update(readFileSync(path.join(root, file)));
    }
    key = `${sha}+${hash.digest("hex").slice(0, 8)}`;
  }
  const dir = path.join(refsDir, `tree-${key}`);
  const hit = cached(dir);
  if (hit) return hit;
  process.stderr.write(`packing the working tree (${key})\n`);
  const tarballs = packAll(path.join(root, "packages"), path.join(dir, "tarballs"));
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  return save(dir, {
    ref: "working tree",
    key,
    subject: git(root, "log", "-1", "--format=%s", "HEAD"),
    tarballs,
    rootDevDependencies: pkg.devDependencies ?? {},
  });
}

/** Packs the packages as of git ref `ref` (see the module's comment). */
export function packRef(root: string, refsDir: string, ref: string): Packed {
  const sha = git(root, "rev-parse", "--short", `${ref}^{commit}`);
  const dir = path.join(refsDir, sha);
  const hit = cached(dir);
  if (hit) return { ...hit, ref };
  process.stderr.write(`packing ${ref} (${sha})\n`);
  const src = path.join(dir, "src");
  rmSync(src, { recursive: true, force: true });
  mkdirSync(src, { recursive: true });
  execSync(`git archive ${sha} | tar -x -C ${JSON.stringify(src)}`, { cwd: root, stdio: "pipe" });
  const builds = PACKAGES.some(
    (name) =>
      JSON.parse(readFileSync(path.join(src, "packages", name, "package.json"), "utf8")).scripts?.prepack,
  );
  if (builds) {
    // The prepack compiles dist/ with the ref's own devDependencies; install scripts (native
    // modules of the repository's examples) are not needed for that.
    process.stderr.write(`  npm ci --ignore-scripts (the packages' prepack builds dist/)\n`);
    run(src, "npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund"]);
  }
  const tmp = path.join(dir, "tarballs.tmp");
  packAll(path.join(src, "packages"), tmp);
  const dest = path.join(dir, "tarballs");
  rmSync(dest, { recursive: true, force: true });
  renameSync(tmp, dest);
  const pkg = JSON.parse(readFileSync(path.join(src, "package.json"), "utf8"));
  rmSync(src, { recursive: true, force: true });
  return save(dir, {
    ref,
    key: sha,
    subject: git(root, "log", "-1", "--format=%s", sha),
    tarballs: readdirSync(dest)
      .filter((f) => f.endsWith(".tgz"))
      .map((f) => path.join(dest, f))
      .sort(),
    rootDevDependencies: pkg.devDependencies ?? {},
  });
}

/** How tables name a packed ref: "working tree (<key>)", "<key>" or "<ref> = <key>". */
export const describePacked = (p: Packed): string =>
  p.ref === "working tree" ? `working tree (${p.key})` : p.ref === p.key ? p.key : `${p.ref} = ${p.key}`;
