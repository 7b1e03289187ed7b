import type * as TS from "typescript-5";

/** The TypeScript compiler API module (`typescript` 5.x or 6.x, or ts-morph's `ts`). */
export type TypeScriptApi = typeof TS;

/**
 * Why the checker loads TypeScript lazily and has no dependency on it: the type check needs the
 * compiler's JavaScript API, which TypeScript 7 (native, the `typescript` that `@mcp-gen/codegen`
 * installs) does not have, and a peer dependency on 5.x/6.x would conflict with it in every project
 * that has both packages. So `@mcp-gen/runtime/code` loads `typescript` only when a checker is
 * created, checks that it has the API, and takes any other copy of it as an option.
 */
export async function loadTypeScript(given?: unknown): Promise<TypeScriptApi> {
  let mod: unknown = given;
  if (mod === undefined) {
    const specifier = "typescript";
    try {
      mod = await import(specifier);
    } catch (error) {
      throw new Error(
        `code mode's type check needs TypeScript's compiler API, and "typescript" cannot be loaded ` +
          `(${(error as Error).message.split("\n")[0]}). Install it: npm install typescript@6.0.3 ` +
          `(5.x works too), or pass one: createChecker({ typescript: (await import("ts-morph")).ts, … })`,
        { cause: error },
      );
    }
  }
  const ts = (hasApi(mod) ? mod : (mod as { default?: unknown } | undefined)?.default) as unknown;
  if (!hasApi(ts)) {
    const version = (mod as { version?: unknown } | undefined)?.version;
    throw new Error(
      `code mode's type check needs TypeScript's JavaScript compiler API, which ` +
        `${given === undefined ? `the installed "typescript"` : "the given module"}` +
        `${typeof version === "string" ? ` (${version})` : ""} does not have (TypeScript 7 is native ` +
        `and has none). Install typescript@6.0.3 (or 5.x) where your code runs, or pass a compiler ` +
        `with the API: createChecker({ typescript: (await import("ts-morph")).ts, … })`,
    );
  }
  return ts;
}

function hasApi(mod: unknown): mod is TypeScriptApi {
  const m = mod as Partial<TypeScriptApi> | undefined;
  return typeof m?.createLanguageService === "function" && typeof m.transpileModule === "function";
}
