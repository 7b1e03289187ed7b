/**
 * The file does not exist.
 * @inputSchema ./missing.json
 */
export function missing(a: string): string {
  return a;
}

/**
 * Not a JSON file.
 * @inputSchema ./schema.yaml
 */
export function yaml(a: string): string {
  return a;
}

/**
 * No path at all.
 * @inputSchema
 */
export function nothing(a: string): string {
  return a;
}

/**
 * A comma too many.
 * @inputSchema ./broken.json
 */
export function broken(a: string): string {
  return a;
}

/**
 * A misspelt type and a required that is no list.
 * @inputSchema ./meta.json
 */
export function meta(a: string): string {
  return a;
}

/**
 * A draft-07 schema.
 * @inputSchema ./draft7.json
 */
export function draft7(a: string): string {
  return a;
}

/**
 * Arguments are an object, not an array.
 * @inputSchema ./array.json
 */
export function array(a: string): string {
  return a;
}

/**
 * A reference to a definition that is not there.
 * @inputSchema ./dangling.json
 */
export function dangling(a: string): string {
  return a;
}

/**
 * Parameters and properties disagree: b is no property, a is not required, extra has no parameter.
 * @inputSchema ./mismatch.json
 */
export function mismatch(a: string, b: number): string {
  return a + b;
}

/**
 * One arguments object whose properties the schema does not have.
 * @inputSchema ./mismatch.json
 */
export function whole(args: { a: string; z?: number }): string {
  return args.a;
}

/**
 * A list, not a schema.
 * @inputSchema ./list.json
 */
export function list(a: string): string {
  return a;
}
