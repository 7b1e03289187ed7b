import type { Contract, ConversionCache, Diagnostic, Target } from "@mcp-gen/schema";
import { emitApiDeclarations } from "./api-declarations.ts";
import { checkRules } from "./check-rules.ts";
import { emitClient } from "./client.ts";
import type { EmitContext } from "./context.ts";
import { emitDocs } from "./docs.ts";
import type { ImportExtension } from "./imports.ts";
import { emitIndex } from "./index-file.ts";
import { emitNormalize } from "./normalize.ts";
import { emitProviders } from "./providers/index.ts";
import { emitServerManifest } from "./server-manifest.ts";
import { emitToolsFile } from "./tools-file.ts";
import { emitTypes } from "./types.ts";
import { emitValidators, type ValidatorCache } from "./validators.ts";
import type { OutputFile } from "./writer.ts";

/** One artifact emitter: a pure function from a contract to files. */
export type Emitter = (ctx: EmitContext) => OutputFile | OutputFile[];

export const EMITTERS: readonly Emitter[] = [
  checkRules,
  emitValidators,
  emitTypes,
  emitToolsFile,
  emitIndex,
  emitServerManifest,
  emitClient,
  emitProviders,
  emitNormalize,
  emitDocs,
  emitApiDeclarations,
];

export interface EmitServerOptions {
  /** Contract file, relative to the project root (for messages). */
  contractFile: string;
  /** Output folder, relative to the project root (POSIX). */
  outDir: string;
  /** Providers to emit tool definitions for; default: all. */
  targets?: readonly Target[];
  /** Extension of relative import specifiers; default `.js` (the build derives it from the tsconfig). */
  importExtension?: ImportExtension;
  /** Validators already compiled, by shape: read and added to (see `ValidatorCache`). */
  validatorCache?: ValidatorCache;
  /** Provider conversions of earlier runs, read and added to (watch; see `ConversionCache`). */
  conversionCache?: ConversionCache;
}

/**
 * Emits every artifact of one server from its contract.
 *
 * @example
 * const { files } = emitServer(contract, { contractFile: "schemas/x.tools.json", outDir: "generated/x" });
 */
export function emitServer(
  contract: Contract,
  options: EmitServerOptions,
): { files: OutputFile[]; warnings: Diagnostic[] } {
  const ctx: EmitContext = {
    contract,
    contractFile: options.contractFile,
    outDir: options.outDir,
    warnings: [],
    importExtension: options.importExtension ?? ".js",
    ...(options.targets ? { targets: options.targets } : {}),
    ...(options.validatorCache ? { validatorCache: options.validatorCache } : {}),
    ...(options.conversionCache ? { conversionCache: options.conversionCache } : {}),
  };
  const files = EMITTERS.flatMap((emit) => emit(ctx));
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { files, warnings: ctx.warnings };
}

export type { EmitContext, ImportExtension, OutputFile, ValidatorCache };
