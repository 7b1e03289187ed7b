import { ts } from "#ts-morph";
import type { ResolvedConfig } from "../config/load.ts";
import { ES5_LIB } from "./es5-library.ts";
import { extractionHost } from "./host.ts";
import { createProject, projectOptions } from "./project.ts";

export interface ExtractionProgramOptions {
  /**
   * Leave out the type packages TypeScript includes by itself (`types`, e.g. `@types/node`'s
   * 2 MB of declarations) and the browser's libraries (`lib.dom.d.ts`' 2 MB, which a tsconfig
   * without `lib` gets by default). Only for extraction while `tsc` type-checks the real program:
   * a tool whose types need them meets an unresolved type, and the extraction is redone without
   * this (see `programs.ts`).
   */
  withoutGlobalTypes?: boolean;
  /** With `withoutGlobalTypes`: the ECMAScript 5 library alone (see `es5-library.ts`). */
  es5Lib?: boolean;
}

/** `a`, `a.b.c`: what a heritage clause names (not a call such as `mixin(Base)`). */
function isEntityName(node: ts.Expression): boolean {
  return ts.isIdentifier(node) || (ts.isPropertyAccessExpression(node) && isEntityName(node.expression));
}

/** Libraries of the browser and other hosts: what `withoutGlobalTypes` leaves out. */
const HOST_LIB = /^lib\.(dom|webworker|scripthost)\b/;

/**
 * The ECMAScript libraries of the options (`lib`, else the target's default) without the host
 * ones: `lib.es2022.full.d.ts` (ES2022 + DOM) becomes `lib.es2022.d.ts`.
 */
export function languageLibs(options: ts.CompilerOptions): string[] {
  const libs = options.lib ?? [
    ts
      .getDefaultLibFileName(options)
      .replace(/\.full\.d\.ts$/, ".d.ts")
      .replace(/^lib\.d\.ts$/, "lib.es5.d.ts"),
  ];
  return libs.filter((lib) => !HOST_LIB.test(lib));
}

/**
 * True when one of the project's own files adds to the global scope (`declare global`, or a
 * script file, which is global as a whole): with the type packages or libraries it augments left
 * out, a type could read differently without any error, so the lean program cannot serve.
 */
export function augmentsGlobals(program: ts.Program): boolean {
  return program
    .getSourceFiles()
    .some(
      (sf) =>
        !program.isSourceFileDefaultLibrary(sf) &&
        !/[\\/]node_modules[\\/]/.test(sf.fileName) &&
        (!ts.isExternalModule(sf) ||
          sf.statements.some(
            (st) => ts.isModuleDeclaration(st) && ts.isIdentifier(st.name) && st.name.text === "global",
          )),
    );
}

/** True for the type TypeScript gives what it could not resolve. */
export function isErrorType(type: ts.Type): boolean {
  return (type as { intrinsicName?: string }).intrinsicName === "error";
}

/**
 * True when a type name in the project's own files (not declaration files, not `node_modules`)
 * does not resolve: in a program created `withoutGlobalTypes`, a sign that it needs the type
 * packages. The type mapper also marks any unresolved type it meets (`ExtractContext.incomplete`); this
 * covers the names whose error type would not reach it (a conditional type over `NodeJS.Platform`
 * takes both branches when the name is unresolved).
 */
export function hasUnresolvedTypeNames(program: ts.Program): boolean {
  const checker = program.getTypeChecker();
  const unresolved = (node: ts.Node): boolean => {
    if (
      (ts.isTypeReferenceNode(node) ||
        ts.isTypeQueryNode(node) ||
        (ts.isExpressionWithTypeArguments(node) && isEntityName(node.expression))) &&
      isErrorType(checker.getTypeFromTypeNode(node))
    )
      return true;
    return ts.forEachChild(node, unresolved) ?? false;
  };
  return program
    .getSourceFiles()
    .some((sf) => !sf.isDeclarationFile && !/[\\/]node_modules[\\/]/.test(sf.fileName) && unresolved(sf));
}

/**
 * The TypeScript program the tools are extracted from: the tool modules and what they import.
 * `MCP_GEN_FULL_PROGRAM=1` turns `withoutGlobalTypes` off.
 *
 * @example
 * const program = createExtractionProgram(config, ["/abs/src/tools.ts"]);
 */
export function createExtractionProgram(
  config: ResolvedConfig,
  files: readonly string[],
  options: ExtractionProgramOptions = {},
): ts.Program {
  const lean = options.withoutGlobalTypes === true && process.env.MCP_GEN_FULL_PROGRAM !== "1";
  // A tsconfig with problems: the options as ts-morph reads it (rare; loads ts-morph).
  let compilerOptions = projectOptions(config) ?? createProject(config).compilerOptions.get();
  if (lean) {
    const lib = options.es5Lib ? [ES5_LIB] : languageLibs(compilerOptions);
    compilerOptions = compilerOptions.noLib
      ? { ...compilerOptions, types: [] }
      : { ...compilerOptions, types: [], lib };
  }
  return ts.createProgram({
    rootNames: files,
    options: compilerOptions,
    host: extractionHost(compilerOptions),
  });
}
