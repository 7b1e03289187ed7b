import module from "node:module";
import { pathToFileURL } from "node:url";
import { type LoadHook, stripCacheHook } from "./strip-cache.ts";

/**
 * Errors Node's own type stripping stops at before running any code of the module graph (while
 * loading or linking): syntax it does not strip (enums, parameter properties, namespaces), a `.js`
 * specifier of a `.ts` file on a Node without `module.registerHooks`, `.tsx`, files under
 * node_modules. tsx handles all of them.
 */
const NOT_STRIPPABLE = new Set([
  "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX",
  "ERR_INVALID_TYPESCRIPT_SYNTAX",
  "ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING",
  "ERR_UNKNOWN_FILE_EXTENSION",
  "ERR_MODULE_NOT_FOUND",
]);

/** Which loader ran the user's TypeScript: Node's own type stripping, or tsx. */
export type TypeScriptLoader = "node" | "tsx";

let loader: TypeScriptLoader | undefined;
let siblingsResolved = false;

/** The loader the last TypeScript module went through (`undefined` before the first). */
export function typeScriptLoader(): TypeScriptLoader | undefined {
  return loader;
}

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
  if (loader !== "tsx" && (process.features as { typescript?: string | false }).typescript) {
    resolveTypeScriptSiblings();
    try {
      const imported = await import(url);
      loader = "node";
      return imported;
    } catch (error) {
      if (!NOT_STRIPPABLE.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
    }
  }
  if (loader !== "tsx") {
    const { register } = await import("tsx/esm/api");
    register();
    loader = "tsx";
  }
  // A query string: a failed native attempt leaves its own entry in Node's module cache.
  return import(`${url}?tsx`);
}

type Resolve = (specifier: string, context: object) => { url: string };
type RegisterHooks = (hooks: {
  resolve: (specifier: string, context: object, next: Resolve) => { url: string };
  load?: LoadHook;
}) => unknown;

/**
 * Projects compiled under `module: "NodeNext"` import their TypeScript files by `.js` specifiers
 * (generated code too), which Node's type stripping does not map to the `.ts` file. Where Node has
 * synchronous in-thread hooks (`module.registerHooks`, 22.15+ and 23.5+), a relative or absolute
 * `.js` / `.mjs` / `.cjs` specifier that resolves to nothing is tried as `.ts` / `.mts` / `.cts`
 * (TypeScript's own rule), so those projects load without tsx. Every other specifier resolves as
 * before; the hook only runs after Node found nothing.
 */
function resolveTypeScriptSiblings(): void {
  if (siblingsResolved) return;
  siblingsResolved = true;
  const registerHooks = (module as unknown as { registerHooks?: RegisterHooks }).registerHooks;
  if (!registerHooks) return;
  const load = stripCacheHook();
  registerHooks({ resolve: resolveTypeScriptSibling, ...(load ? { load } : {}) });
}

/** The resolve hook of `resolveTypeScriptSiblings`. */
export function resolveTypeScriptSibling(specifier: string, context: object, next: Resolve): { url: string } {
  try {
    return next(specifier, context);
  } catch (error) {
    const match = /^(?:\.{1,2}\/|\/|file:)(?:.*)\.([mc]?)js$/.exec(specifier);
    if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND" || !match) throw error;
    const sibling = `${specifier.slice(0, -`${match[1]}js`.length)}${match[1]}ts`;
    try {
      return next(sibling, context);
    } catch {
      throw error;
    }
  }
}
