import { createHash, type Hash } from "node:crypto";
import { createRequire } from "node:module";
import { createAjv } from "@mcp-gen/schema";

/** A compiled shape as `validators.ts` holds it: the code of its function scope and its root function. */
export interface ShapeCode {
  code: string;
  root: string;
}

let compiler: string | undefined;
/** A SHA-256 that has taken the compiler's identity and its separator: each fingerprint continues a copy. */
let prefix: Hash | undefined;

/**
 * What the compiled code of a schema depends on besides the schema: Ajv's and ajv-formats'
 * versions, the options of the Ajv instance the validators emitter compiles with and the names and
 * patterns of its formats (not the source of functions: it differs between the compiled package and
 * its TypeScript run through a loader, and the fingerprint must not). Computed once per process.
 */
function compilerIdentity(): string {
  if (compiler !== undefined) return compiler;
  const require = createRequire(import.meta.url);
  const schemaRequire = createRequire(require.resolve("@mcp-gen/schema"));
  const ajv = createAjv({ source: true }) as unknown as { opts: unknown; formats: unknown };
  // `uriResolver` is fast-uri's module (circular), the same for every schema
  const source = (key: string, value: unknown) =>
    key === "uriResolver"
      ? undefined
      : typeof value === "function"
        ? "function"
        : value instanceof RegExp
          ? String(value)
          : value;
  compiler = JSON.stringify([
    `ajv@${(schemaRequire("ajv/package.json") as { version: string }).version}`,
    `ajv-formats@${(schemaRequire("ajv-formats/package.json") as { version: string }).version}`,
    JSON.stringify(ajv.opts, source),
    JSON.stringify(ajv.formats, source),
  ]);
  return compiler;
}

/**
 * The fingerprint `validators.ts` writes after each shape's line: a SHA-256 (base64url) of the
 * compiler's identity, the schema the shape was compiled from (without annotations, as JSON) and
 * the code compiled. `build --check` takes a committed line instead of compiling its schema only
 * when the fingerprint of that schema and the line's code equals the one written: an edited line,
 * another schema or another Ajv each give another fingerprint, and the shape is compiled again.
 */
export function shapeFingerprint(json: string, shape: ShapeCode): string {
  prefix ??= createHash("sha256").update(compilerIdentity()).update("\0");
  return prefix
    .copy()
    .update(json)
    .update("\0")
    .update(shape.root)
    .update("\0")
    .update(shape.code)
    .digest("base64url");
}
