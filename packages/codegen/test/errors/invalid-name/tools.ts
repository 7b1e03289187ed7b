/**
 * Bad name.
 * @name read file
 */
export function readFile(): void {}
