import type { ts } from "ts-morph";
import type { ResolvedConfig } from "../config/load.ts";
import { augmentsGlobals, createExtractionProgram, hasUnresolvedTypeNames } from "./program.ts";

/**
 * The program the tools are read from. While `tsc` type-checks the real program in another
 * process, extraction may start from a lean one without the global type packages (`@types/node`'s
 * 2 MB of declarations) and the browser's libraries (`lib.dom.d.ts`): a read that meets an
 * unresolved type there (`incomplete`), or fails at all, is done again on the whole program, so
 * the output and the errors are the same either way.
 */
export interface ExtractionPrograms {
  /** The program syntax errors are reported from (the lean one when there is one). */
  readonly first: ts.Program;
  /** Runs `read` on the lean program, and again on the whole one when it was incomplete or threw. */
  read<T>(read: (program: ts.Program, lean: boolean) => { value: T; incomplete: boolean }): T;
  /** The whole program (created on first use). */
  whole(): ts.Program;
}

/**
 * @example
 * const programs = extractionPrograms(config, files, { lean: true });
 * const ir = programs.read((program, lean) => extractAll(program, lean));
 */
export function extractionPrograms(
  config: ResolvedConfig,
  files: readonly string[],
  options: { lean: boolean },
): ExtractionPrograms {
  let whole: ts.Program | undefined;
  const wholeProgram = () => (whole ??= createExtractionProgram(config, files));
  let lean: ts.Program | undefined;
  if (options.lean && process.env.MCP_GEN_FULL_PROGRAM !== "1") {
    lean = createExtractionProgram(config, files, { withoutGlobalTypes: true });
    // A type name that does not resolve without the type packages and host libraries, or a file
    // that augments the global scope: the lean program cannot serve.
    if (hasUnresolvedTypeNames(lean) || augmentsGlobals(lean)) lean = undefined;
  }
  return {
    first: lean ?? wholeProgram(),
    whole: wholeProgram,
    read(read) {
      if (lean) {
        try {
          const attempt = read(lean, true);
          if (!attempt.incomplete) return attempt.value;
        } catch {
          // The same read on the whole program reports the real error, if any.
        }
      }
      return read(wholeProgram(), false).value;
    },
  };
}
