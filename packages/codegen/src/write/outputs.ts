import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * A file the build produces: its text, or that text as UTF-8 bytes (`runPipeline`'s `encode`, for a
 * build that only writes its outputs: V8 holds a text with any character beyond Latin-1, such as
 * the generated header's em dash, at two bytes a character until it is written).
 */
export interface BuiltFile {
  path: string;
  content: string | Uint8Array;
}

/** The text of a built file, whichever way it is held. */
export function textOf(file: BuiltFile): string {
  return typeof file.content === "string" ? file.content : Buffer.from(file.content).toString("utf8");
}

/** What a build produces: files, and the folders it owns entirely (files there it did not produce are stale). */
export interface BuildOutputs {
  files: BuiltFile[];
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

/**
 * What a long-running process (watch) knows the disk holds: a file's content as it was last written
 * or read, with its size and modification time then. While both are the same, the content is not
 * read again.
 */
export type DiskMemo = Map<string, { content: string; size: number; mtimeMs: number }>;

/** Records what `file` now holds on disk (after it was written, or read and found equal). */
export function remember(memo: DiskMemo, full: string, content: string): void {
  const stat = statSync(full, { throwIfNoEntry: false });
  if (stat) memo.set(full, { content, size: stat.size, mtimeMs: stat.mtimeMs });
  else memo.delete(full);
}

/**
 * Compares outputs with the disk: changed or missing files, and files in owned folders the build
 * would not produce. With a `memo`, a file whose size and modification time are as recorded, and
 * whose recorded content is the output's, is taken as fresh without reading it.
 */
export function findStale(outputs: BuildOutputs, root: string, memo?: DiskMemo): StaleEntry[] {
  const stale: StaleEntry[] = [];
  const produced = new Set(outputs.files.map((f) => f.path));
  for (const file of outputs.files) {
    const full = path.join(root, file.path);
    const stat = statSync(full, { throwIfNoEntry: false });
    if (!stat) {
      stale.push({ path: file.path, status: "missing" });
      continue;
    }
    const { content } = file;
    if (typeof content !== "string") {
      if (!readFileSync(full).equals(content)) stale.push({ path: file.path, status: "changed" });
      continue;
    }
    const known = memo?.get(full);
    if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs && known.content === content)
      continue;
    if (readFileSync(full, "utf8") !== content) stale.push({ path: file.path, status: "changed" });
    else if (memo) memo.set(full, { content, size: stat.size, mtimeMs: stat.mtimeMs });
  }
  for (const dir of outputs.ownedDirs) {
    for (const rel of listFiles(path.join(root, dir))) {
      const p = `${dir}/${rel}`;
      if (!produced.has(p)) stale.push({ path: p, status: "extra" });
    }
  }
  return stale.sort((a, b) => (a.path < b.path ? -1 : 1));
}
