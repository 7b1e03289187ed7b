/**
 * Reads a text file.
 * @name read.file
 */
export function readFile(path: string): string {
  return path;
}
