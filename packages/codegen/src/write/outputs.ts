import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { OutputFile } from "../emit/writer.ts";

/** What a build produces: files, and the folders it owns entirely (files there it did not produce are stale). */
export interface BuildOutputs {
  files: OutputFile[];
  /** Folders (relative to the root) whose whole content the build decides. */
  ownedDirs: string[];
}

export interface StaleEntry {
  path: string;
  status: "changed" | "missing" | "extra";
}

function listFiles(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory()
      ? listFiles(full, base)
      : [path.relative(base, full).split(path.sep).join("/")];
  });
}

/** Compares outputs with the disk: changed or missing files, and files in owned folders the build would not produce. */
export function findStale(outputs: BuildOutputs, root: string): StaleEntry[] {
  const stale: StaleEntry[] = [];
  const produced = new Set(outputs.files.map((f) => f.path));
  for (const file of outputs.files) {
    const full = path.join(root, file.path);
    if (!existsSync(full)) stale.push({ path: file.path, status: "missing" });
    else if (readFileSync(full, "utf8") !== file.content) stale.push({ path: file.path, status: "changed" });
  }
  for (const dir of outputs.ownedDirs) {
    for (const rel of listFiles(path.join(root, dir))) {
      const p = `${dir}/${rel}`;
      if (!produced.has(p)) stale.push({ path: p, status: "extra" });
    }
  }
  return stale.sort((a, b) => (a.path < b.path ? -1 : 1));
}
