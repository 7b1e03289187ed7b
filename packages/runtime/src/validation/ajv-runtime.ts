/**
 * `@mcp-gen/runtime/ajv-runtime`: the helpers Ajv's standalone code calls at run time, for the
 * generated `validators.ts`. Ajv's standalone code reaches them with `require("ajv/dist/runtime/…")`
 * and `require("ajv-formats/dist/formats")`, resolved from the file that runs it: from a user's
 * project that only works while the package manager happens to hoist `ajv` to the top of
 * `node_modules` (not under pnpm), and a bundler cannot follow it. Here they are imported
 * statically from this package's own dependencies, and generated code takes `require` from here.
 */

import * as equal from "ajv/dist/runtime/equal.js";
import * as timestamp from "ajv/dist/runtime/timestamp.js";
import * as ucs2length from "ajv/dist/runtime/ucs2length.js";
import * as uri from "ajv/dist/runtime/uri.js";
import * as validationError from "ajv/dist/runtime/validation_error.js";
import * as formats from "ajv-formats/dist/formats.js";

/**
 * A CommonJS module's `module.exports` (what `require()` returns) from its namespace. These
 * modules are compiled ES modules (marked `__esModule`): Node makes the namespace's `default` the
 * whole `module.exports`, marker included; esbuild and Vite make the namespace itself look like
 * `module.exports`, its `default` being the module's own default export.
 */
function commonJs(namespace: object): unknown {
  const exported = (namespace as { default?: { __esModule?: unknown } }).default;
  return exported?.__esModule === true ? exported : namespace;
}

const MODULES: Readonly<Record<string, unknown>> = {
  "ajv/dist/runtime/equal": commonJs(equal),
  "ajv/dist/runtime/timestamp": commonJs(timestamp),
  "ajv/dist/runtime/ucs2length": commonJs(ucs2length),
  "ajv/dist/runtime/uri": commonJs(uri),
  "ajv/dist/runtime/validation_error": commonJs(validationError),
  "ajv-formats/dist/formats": commonJs(formats),
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
