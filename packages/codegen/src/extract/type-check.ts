import type { Diagnostic } from "@mcp-gen/schema";
import type { ts } from "ts-morph";
import type { ResolvedConfig } from "../config/load.ts";
import { startNativeCheck } from "./native-check.ts";
import { syntaxErrors, typeErrors } from "./project.ts";

/**
 * How the tool modules are type-checked: by TypeScript 7's native `tsc` in a child process while
 * ts-morph extracts (`parallel`), or in process before extraction. Type errors stop the build
 * before any extraction error is reported.
 */
export interface TypeCheck {
  /** The check runs beside the extraction, so extraction may read a lean program. */
  readonly parallel: boolean;
  /** Errors to report before extracting: syntax errors (parallel) or all type errors (in process). */
  before(program: ts.Program, wholeProgram: () => ts.Program): Diagnostic[];
  /** Type errors found beside the extraction (none in process: `before` had them). */
  after(wholeProgram: () => ts.Program): Promise<Diagnostic[]>;
  cancel(): void;
}

/**
 * @example
 * const check = startTypeCheck(config, files);
 * try { … } finally { check.cancel(); }
 */
export function startTypeCheck(config: ResolvedConfig, files: readonly string[]): TypeCheck {
  const native = startNativeCheck(config, files);
  const inProcess = (program: ts.Program) => typeErrors(program, files.map(sourceOf(program)), config.root);
  if (!native) {
    return {
      parallel: false,
      before: (_program, whole) => inProcess(whole()),
      after: async () => [],
      cancel: () => {},
    };
  }
  return {
    parallel: true,
    before: (program) => syntaxErrors(program, files.map(sourceOf(program)), config.root),
    // `tsc` failed or rejected the options (`undefined`): check in process instead.
    after: async (whole) => (await native.result) ?? inProcess(whole()),
    cancel: native.cancel,
  };
}

function sourceOf(program: ts.Program) {
  return (file: string): ts.SourceFile => {
    const sf = program.getSourceFile(file);
    if (!sf) throw new Error(`the program has no ${file}`);
    return sf;
  };
}
