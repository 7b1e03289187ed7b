import { readFileSync } from "node:fs";
import type { ts } from "ts-morph";
import type { ResolvedConfig } from "../config/load.ts";
import { namesLaterGlobals, readsLibraryMembers } from "./es5-library.ts";
import { augmentsGlobals, createExtractionProgram, hasUnresolvedTypeNames } from "./program.ts";

/**
 * How much a program leaves out: nothing (`false`), the global type packages and host libraries
 * (`"types"`), and also every ECMAScript library after ES5 (`"es5"`, see `es5-library.ts`).
 */
export type Lean = false | "types" | "es5";

/**
 * The program the tools are read from. While `tsc` type-checks the real program in another
 * process, extraction may start from a lean one without the global type packages (`@types/node`'s
 * 2 MB of declarations) and the browser's libraries (`lib.dom.d.ts`), and first from one with the
 * ES5 library alone: a read that meets an unresolved type there (`incomplete`), or fails at all, is
 * done again on the next one and at last on the whole program, so the output and the errors are
 * the same either way.
 */
export interface ExtractionPrograms {
  /** The program syntax errors are reported from (the leanest one that can serve). */
  readonly first: ts.Program;
  /** Runs `read` on the leanest program, and again on the next when it was incomplete or threw. */
  read<T>(read: (program: ts.Program, lean: Lean) => { value: T; incomplete: boolean }): T;
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
  const leanOnes: Exclude<Lean, false>[] = [];
  if (options.lean && process.env.MCP_GEN_FULL_PROGRAM !== "1") {
    // A tool module naming a later library's global (Map, Symbol …) would not resolve with ES5 alone.
    if (!files.some((f) => namesLaterGlobals(readFileSync(f, "utf8")))) leanOnes.push("es5");
    leanOnes.push("types");
  }
  /** The next lean program that can serve, or `undefined` when none is left. */
  const next = (): { program: ts.Program; lean: Exclude<Lean, false> } | undefined => {
    for (let lean = leanOnes.shift(); lean; lean = leanOnes.shift()) {
      const program = createExtractionProgram(config, files, {
        withoutGlobalTypes: true,
        es5Lib: lean === "es5",
      });
      // A type name that does not resolve without the type packages and later libraries, a file
      // that augments the global scope, or (ES5 alone) a type reading a library type's members.
      if (hasUnresolvedTypeNames(program) || augmentsGlobals(program)) continue;
      if (lean === "es5" && readsLibraryMembers(program)) continue;
      return { program, lean };
    }
    return undefined;
  };
  let current = next();
  return {
    first: current?.program ?? wholeProgram(),
    whole: wholeProgram,
    read(read) {
      for (; current; current = next()) {
        try {
          const attempt = read(current.program, current.lean);
          if (!attempt.incomplete) return attempt.value;
        } catch {
          // The same read on a fuller program reports the real error, if any.
        }
      }
      return read(wholeProgram(), false).value;
    },
  };
}
