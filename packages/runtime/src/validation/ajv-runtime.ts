/**
 * `@mcp-gen/runtime/ajv-runtime`: the helpers Ajv's standalone code calls at run time, for the
 * generated `validators.ts`. Ajv's standalone code reaches them with `require("ajv/dist/runtime/…")`
 * and `require("ajv-formats/dist/formats")`, resolved from the file that runs it: from a user's
 * project that only works while the package manager happens to hoist `ajv` to the top of
 * `node_modules` (not under pnpm), and a bundler cannot follow it. Here they are imported
 * statically from this package's own dependencies. Generated code imports only the helpers its
 * validators call, each from its own entry (`@mcp-gen/runtime/ajv-runtime/<helper>`, listed in
 * `AJV_HELPER_ENTRIES`); `ajvRequire` loads all six, for code generated before those entries.
 */

import equal from "./ajv-runtime/equal.ts";
import formats from "./ajv-runtime/formats.ts";
import timestamp from "./ajv-runtime/timestamp.ts";
import ucs2length from "./ajv-runtime/ucs2length.ts";
import uri from "./ajv-runtime/uri.ts";
import validationError from "./ajv-runtime/validation-error.ts";

/** The entry of each helper, by the id Ajv's standalone code `require()`s it with. */
export const AJV_HELPER_ENTRIES: Readonly<Record<string, string>> = {
  "ajv/dist/runtime/equal": "@mcp-gen/runtime/ajv-runtime/equal",
  "ajv/dist/runtime/timestamp": "@mcp-gen/runtime/ajv-runtime/timestamp",
  "ajv/dist/runtime/ucs2length": "@mcp-gen/runtime/ajv-runtime/ucs2length",
  "ajv/dist/runtime/uri": "@mcp-gen/runtime/ajv-runtime/uri",
  "ajv/dist/runtime/validation_error": "@mcp-gen/runtime/ajv-runtime/validation-error",
  "ajv-formats/dist/formats": "@mcp-gen/runtime/ajv-runtime/formats",
};

const MODULES: Readonly<Record<string, unknown>> = {
  "ajv/dist/runtime/equal": equal,
  "ajv/dist/runtime/timestamp": timestamp,
  "ajv/dist/runtime/ucs2length": ucs2length,
  "ajv/dist/runtime/uri": uri,
  "ajv/dist/runtime/validation_error": validationError,
  "ajv-formats/dist/formats": formats,
};

/**
 * What `require(id)` gives Ajv's standalone code, for the modules it names.
 *
 * @example
 * const ucs2length = ajvRequire("ajv/dist/runtime/ucs2length").default;
 */
export function ajvRequire(id: string): unknown {
  if (!Object.hasOwn(MODULES, id)) {
    throw new Error(
      `generated validators need "${id}", which @mcp-gen/runtime does not provide: rebuild them with the @mcp-gen/codegen of the same version (npx mcp-gen build)`,
    );
  }
  return MODULES[id];
}
