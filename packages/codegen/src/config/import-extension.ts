import { tsconfigOptions } from "../extract/project.ts";
import type { ImportExtension } from "./define.ts";
import type { ResolvedConfig } from "./load.ts";

/**
 * The extension of relative imports in generated code: the config's `importExtension`, else `.ts`
 * when the tsconfig the build uses (with its `extends`) lets the project import `.ts` files
 * (`allowImportingTsExtensions` or `rewriteRelativeImportExtensions`), else `.js`, which NodeNext
 * needs when `tsc` emits JavaScript (and which is the default without a tsconfig).
 *
 * @example
 * emitServer(contract, { contractFile, outDir, importExtension: importExtensionOf(config) });
 */
export function importExtensionOf(config: ResolvedConfig): ImportExtension {
  if (config.importExtension !== undefined) return config.importExtension;
  if (!config.tsconfig) return ".js";
  const options = tsconfigOptions(config.tsconfig);
  return options.allowImportingTsExtensions || options.rewriteRelativeImportExtensions ? ".ts" : ".js";
}
