import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type BuildOutputs, type DiskMemo, findStale, remember, textOf } from "./outputs.ts";

/**
 * Writes outputs so that a failure never leaves a half-written folder: each owned folder
 * is written complete beside the old one and swapped in by rename; loose files are written
 * to a temporary name and renamed. Folders whose content is unchanged are left untouched.
 * Returns the paths that changed. A `memo` (watch) spares reading files it knows (see `findStale`)
 * and learns what was written.
 */
export function writeOutputs(outputs: BuildOutputs, root: string, memo?: DiskMemo): string[] {
  const stale = findStale(outputs, root, memo);
  if (stale.length === 0) return [];
  const staleDirs = new Set(outputs.ownedDirs.filter((d) => stale.some((s) => s.path.startsWith(`${d}/`))));
  const tag = `.mcp-gen-tmp-${process.pid}-${Date.now().toString(36)}`;
  const prepared: { tmp: string; target: string; dir: boolean }[] = [];
  try {
    for (const dir of staleDirs) {
      const tmp = path.join(root, `${dir}${tag}`);
      for (const file of outputs.files.filter((f) => f.path.startsWith(`${dir}/`))) {
        const target = path.join(tmp, file.path.slice(dir.length + 1));
        mkdirSync(path.dirname(target), { recursive: true });
        writeFileSync(target, file.content);
      }
      mkdirSync(tmp, { recursive: true });
      prepared.push({ tmp, target: path.join(root, dir), dir: true });
    }
    for (const file of outputs.files) {
      if (outputs.ownedDirs.some((d) => file.path.startsWith(`${d}/`))) continue;
      if (!stale.some((s) => s.path === file.path)) continue;
      const target = path.join(root, file.path);
      const tmp = `${target}${tag}`;
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(tmp, file.content);
      prepared.push({ tmp, target, dir: false });
    }
  } catch (error) {
    for (const p of prepared) rmSync(p.tmp, { recursive: true, force: true });
    throw error;
  }
  for (const dir of staleDirs) {
    // An owned folder the build produces nothing for (a removed server) goes away.
    if (!outputs.files.some((f) => f.path.startsWith(`${dir}/`))) {
      const index = prepared.findIndex((p) => p.target === path.join(root, dir));
      if (index >= 0) rmSync(prepared.splice(index, 1)[0]!.tmp, { recursive: true, force: true });
      rmSync(path.join(root, dir), { recursive: true, force: true });
    }
  }
  for (const { tmp, target, dir } of prepared) {
    if (dir && existsSync(target)) {
      const old = `${target}${tag}-old`;
      renameSync(target, old);
      renameSync(tmp, target);
      rmSync(old, { recursive: true, force: true });
    } else {
      mkdirSync(path.dirname(target), { recursive: true });
      renameSync(tmp, target);
    }
  }
  if (memo) {
    const changed = new Set(stale.map((s) => s.path));
    for (const file of outputs.files) {
      if (changed.has(file.path) || [...staleDirs].some((d) => file.path.startsWith(`${d}/`)))
        remember(memo, path.join(root, file.path), textOf(file));
    }
  }
  return stale.map((s) => s.path);
}
