import { pathToFileURL } from "node:url";

/**
 * Errors Node's own type stripping stops at before running any code of the module graph (while
 * loading or linking): syntax it does not strip (enums, parameter properties, namespaces), a `.js`
 * specifier that names a `.ts` file, `.tsx`, files under node_modules. tsx handles all of them.
 */
const NOT_STRIPPABLE = new Set([
  "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX",
  "ERR_INVALID_TYPESCRIPT_SYNTAX",
  "ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING",
  "ERR_UNKNOWN_FILE_EXTENSION",
  "ERR_MODULE_NOT_FOUND",
]);

let tsxRegistered = false;

/**
 * Imports a module the user wrote (a `.ts` config, a generated `server.ts` and the tool modules it
 * imports). JavaScript is imported as it is. TypeScript goes through Node's own type stripping
 * where the running Node has it (22.18+, 23.6+) and through tsx otherwise, or when stripping cannot
 * load the graph (see `NOT_STRIPPABLE`; nothing of the graph has run then).
 *
 * @example
 * const mod = await importModule("/abs/project/generated/shop/server.ts");
 */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  if (!/\.[cm]?tsx?$/.test(file)) return import(url);
  if (!tsxRegistered && (process.features as { typescript?: string | false }).typescript) {
    try {
      return await import(url);
    } catch (error) {
      if (!NOT_STRIPPABLE.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
    }
  }
  if (!tsxRegistered) {
    const { register } = await import("tsx/esm/api");
    register();
    tsxRegistered = true;
  }
  // A query string: a failed native attempt leaves its own entry in Node's module cache.
  return import(`${url}?tsx`);
}
