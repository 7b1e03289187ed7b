import type { Contract, ConversionCache, Target } from "@mcp-gen/schema";
import { type Diagnostic, diagnostic } from "@mcp-gen/schema";
import type { ImportExtension } from "./imports.ts";
import type { ValidatorCache } from "./validators.ts";

/** What every emitter gets: the contract, where its output goes, and a place for warnings. */
export interface EmitContext {
  contract: Contract;
  /** Contract file, relative to the project root (for messages). */
  contractFile: string;
  /** Output folder of this server, relative to the project root (POSIX). */
  outDir: string;
  warnings: Diagnostic[];
  /** Extension of relative import specifiers in the emitted TypeScript. */
  importExtension: ImportExtension;
  /** Providers to emit tool definitions for; default: all. */
  targets?: readonly Target[];
  /** Validators already compiled, by shape (the servers of a build share it; watch keeps it). */
  validatorCache?: ValidatorCache;
  /** Provider conversions of earlier runs, by tool (watch keeps it; a one-off build has none). */
  conversionCache?: ConversionCache;
}

export function warnAt(ctx: EmitContext, pointer: string, message: string): void {
  ctx.warnings.push(diagnostic("MCPG100", message, { file: ctx.contractFile, pointer }));
}
