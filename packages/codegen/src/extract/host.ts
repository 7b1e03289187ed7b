import { ts } from "#ts-morph";
import { libFiles } from "./lib-files.ts";

/** A path as TypeScript writes file names (forward slashes on Windows too). */
const slashes = (file: string): string => file.replaceAll("\\", "/");

/**
 * The compiler host of the extraction's programs: TypeScript's own (`ts.sys`, parent pointers
 * set, as ts-morph's project had them) with the `lib.*.d.ts` files read from `libFiles()`. A
 * program from `ts.createProgram` with this host is the one ts-morph's `Project` made from the same
 * options and files (the same files, options and output: `test/extract/host.test.ts`), without
 * loading ts-morph and its embedded texts, and without its language service around the program.
 *
 * @example
 * const program = ts.createProgram({ rootNames: files, options, host: extractionHost(options) });
 */
export function extractionHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const libs = libFiles();
  const folder = slashes(libs.folder);
  /** The base name of a file of the library folder, else `undefined`. */
  const libName = (file: string): string | undefined => {
    const normal = slashes(file);
    const name = normal.slice(folder.length + 1);
    return normal.startsWith(`${folder}/`) && !name.includes("/") ? name : undefined;
  };
  const { fileExists, readFile } = host;
  host.getDefaultLibLocation = () => folder;
  host.getDefaultLibFileName = (o) => `${folder}/${ts.getDefaultLibFileName(o)}`;
  // TypeScript's host reads a source file through `host.readFile`, so these two serve the libraries.
  host.fileExists = (file) => {
    const name = libName(file);
    return name === undefined ? fileExists(file) : libs.text(name) !== undefined;
  };
  host.readFile = (file) => {
    const name = libName(file);
    return name === undefined ? readFile(file) : libs.text(name);
  };
  return host;
}
