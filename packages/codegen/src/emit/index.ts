import type { Contract, Diagnostic, Target } from "@mcp-gen/schema";
import { checkRules } from "./check-rules.ts";
import { emitClient } from "./client.ts";
import type { EmitContext } from "./context.ts";
import { emitDocs } from "./docs.ts";
import { emitIndex } from "./index-file.ts";
import { emitNormalize } from "./normalize.ts";
import { emitProviders } from "./providers/index.ts";
import { emitServerManifest } from "./server-manifest.ts";
import { emitToolsFile } from "./tools-file.ts";
import { emitTypes } from "./types.ts";
import { emitValidators } from "./validators.ts";
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
];

/**
 * Emits every artifact of one server from its contract.
 *
 * @example
 * const { files } = emitServer(contract, { contractFile: "schemas/x.tools.json", outDir: "generated/x" });
 */
export function emitServer(
  contract: Contract,
  options: { contractFile: string; outDir: string; targets?: readonly Target[] },
): { files: OutputFile[]; warnings: Diagnostic[] } {
  const ctx: EmitContext = {
    contract,
    contractFile: options.contractFile,
    outDir: options.outDir,
    warnings: [],
    ...(options.targets ? { targets: options.targets } : {}),
  };
  const files = EMITTERS.flatMap((emit) => emit(ctx));
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { files, warnings: ctx.warnings };
}

export type { EmitContext, OutputFile };
