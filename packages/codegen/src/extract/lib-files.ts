import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ts, tsMorphCommonVersion, tsMorphLibFiles } from "#ts-morph";

/**
 * The `lib.*.d.ts` files the extraction's programs read. TypeScript as ts-morph bundles it has no
 * lib folder: `@ts-morph/common` embeds all 108 texts (2.8 MB) in its module, which costs ≈ 40 ms to
 * load on every build although a program reads 3 to 60 of them. So the first build writes them once
 * to a folder keyed by the `@ts-morph/common` and TypeScript versions, next to Node's compile cache
 * (`NODE_COMPILE_CACHE`, else `os.tmpdir()/node-compile-cache`), and later builds read the files
 * their program names from there. The folder is written whole under another name and renamed into
 * place, with a list of the files and their lengths written last; a file missing or of another
 * length (a temp cleaner, an edit) sends the build back to the embedded texts.
 * `NODE_DISABLE_COMPILE_CACHE=1` turns this off with the compile cache (the embedded texts then).
 */
export interface LibFiles {
  /** The folder TypeScript is told the libraries are in (`getDefaultLibLocation`). */
  readonly folder: string;
  /** The text of a library file of that folder, by base name; `undefined` when there is none. */
  text(fileName: string): string | undefined;
}

/** The cache folder of this TypeScript and `@ts-morph/common`. */
export function libCacheFolder(): string {
  const root = path.resolve(process.env.NODE_COMPILE_CACHE || path.join(os.tmpdir(), "node-compile-cache"));
  return path.join(root, "mcp-gen-ts-lib", `${tsMorphCommonVersion()}-${ts.version}`);
}

const LIST = "files.json";

let embedded: Map<string, string> | undefined;
function embeddedTexts(): Map<string, string> {
  embedded ??= new Map(tsMorphLibFiles().map((f) => [f.fileName, f.text]));
  return embedded;
}

/** The library files from the embedded texts (nothing on disk). */
function inMemory(folder: string): LibFiles {
  return { folder, text: (name) => embeddedTexts().get(name) };
}

/** Writes the folder under a temporary name and renames it into place. */
function writeCache(folder: string): void {
  const temp = `${folder}.${process.pid}-${Date.now()}.tmp`;
  try {
    mkdirSync(temp, { recursive: true });
    const lengths: Record<string, number> = {};
    for (const [name, text] of embeddedTexts()) {
      writeFileSync(path.join(temp, name), text);
      lengths[name] = text.length;
    }
    writeFileSync(path.join(temp, LIST), JSON.stringify(lengths));
    renameSync(temp, folder);
  } catch {
    // Another build renamed its copy first, or the folder cannot be written (then neither can this be removed).
    try {
      rmSync(temp, { recursive: true, force: true });
    } catch {}
  }
}

function readList(folder: string): Record<string, number> | undefined {
  try {
    return JSON.parse(readFileSync(path.join(folder, LIST), "utf8")) as Record<string, number>;
  } catch {
    return undefined;
  }
}

/**
 * The library files for this process (the cache folder, written on first use, or the embedded texts).
 *
 * @example
 * const libs = libFiles();
 * libs.text("lib.es5.d.ts"); // the ES5 library's declarations
 */
export function libFiles(): LibFiles {
  const folder = libCacheFolder();
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return inMemory(folder);
  let lengths = readList(folder);
  // When another build renamed its copy into place first, that copy serves.
  if (!lengths) {
    writeCache(folder);
    lengths = readList(folder);
  }
  if (!lengths) return inMemory(folder);
  const list = lengths;
  return {
    folder,
    text(name) {
      if (!Object.hasOwn(list, name)) return undefined;
      try {
        const text = readFileSync(path.join(folder, name), "utf8");
        if (text.length === list[name]) return text;
      } catch {}
      return embeddedTexts().get(name);
    },
  };
}
