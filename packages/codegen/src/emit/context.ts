import type { Contract, Target } from "@mcp-gen/schema";
import { type Diagnostic, diagnostic } from "@mcp-gen/schema";
import type { ImportExtension } from "./imports.ts";
import type { OutputFile } from "./writer.ts";

/**
 * `validators.ts` as a previous emission of the same server produced it, with the key of what it
 * was produced from (watch keeps it, so an edit that leaves every schema as it was compiles nothing).
 */
export interface ValidatorsReuse {
  key: string;
  file: OutputFile;
  warnings: Diagnostic[];
}

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
  /** Watch's slot for this server's validators: read when its key matches, replaced otherwise. */
  validators?: { previous?: ValidatorsReuse };
}

export function warnAt(ctx: EmitContext, pointer: string, message: string): void {
  ctx.warnings.push(diagnostic("MCPG100", message, { file: ctx.contractFile, pointer }));
}
