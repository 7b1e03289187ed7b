import type { Contract } from "../contract/types.ts";
import { type Diagnostic, diagnostic } from "../diagnostics.ts";

/** What every emitter gets: the contract, where its output goes, and a place for warnings. */
export interface EmitContext {
  contract: Contract;
  /** Contract file, relative to the project root (for messages). */
  contractFile: string;
  /** Output folder of this server, relative to the project root (POSIX). */
  outDir: string;
  warnings: Diagnostic[];
}

export function warnAt(ctx: EmitContext, pointer: string, message: string): void {
  ctx.warnings.push(diagnostic("MCPG100", message, { file: ctx.contractFile, pointer }));
}
