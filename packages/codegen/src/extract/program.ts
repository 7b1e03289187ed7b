import { readFileSync } from "node:fs";
import { type Project, ts } from "ts-morph";
import type { ResolvedConfig } from "../config/load.ts";
import { createProject } from "./project.ts";
import {
  entryFor,
  guessRuntimeImports,
  type LightEntry,
  lightEntries,
  runtimeImportsOf,
  verifyLightImports,
  withRuntimePath,
} from "./runtime-entry.ts";

export interface ExtractionProgramOptions {
  /**
   * Leave out the type packages TypeScript includes by itself (`types`, e.g. `@types/node`'s
   * 2 MB of declarations). Only for extraction while `tsc` type-checks the real program: a tool
   * whose types need them meets an unresolved type, and the extraction is redone without this
   * (see `IncompleteProgram`).
   */
  withoutGlobalTypes?: boolean;
}

/**
 * Thrown by the type mapper when a type did not resolve in a program created `withoutGlobalTypes`:
 * the extraction must be redone with the whole program.
 */
export class IncompleteProgram extends Error {
  constructor() {
    super("a type did not resolve without the global type packages");
  }
}

/** `a`, `a.b.c`: what a heritage clause names (not a call such as `mixin(Base)`). */
function isEntityName(node: ts.Expression): boolean {
  return ts.isIdentifier(node) || (ts.isPropertyAccessExpression(node) && isEntityName(node.expression));
}

/** True for the type TypeScript gives what it could not resolve. */
export function isErrorType(type: ts.Type): boolean {
  return (type as { intrinsicName?: string }).intrinsicName === "error";
}

/**
 * True when a type name in the project's own files (not declaration files, not `node_modules`)
 * does not resolve: in a program created `withoutGlobalTypes`, a sign that it needs the type
 * packages. The type mapper also stops at any unresolved type it meets (`IncompleteProgram`); this
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
 * The runtime's root entry resolves to a lighter one when the tool modules only import what that
 * exports (see `lightEntries`); when another file of the program uses more of the runtime, the
 * program is created again with the root entry as it is. `MCP_GEN_FULL_PROGRAM=1` turns both this
 * and `withoutGlobalTypes` off.
 *
 * @example
 * const program = createExtractionProgram(config, ["/abs/src/tools.ts"]);
 */
export function createExtractionProgram(
  config: ResolvedConfig,
  files: readonly string[],
  options: ExtractionProgramOptions = {},
): ts.Program {
  const full = process.env.MCP_GEN_FULL_PROGRAM === "1";
  const lean = options.withoutGlobalTypes === true && !full;
  // Options are set before any file is added: changing them later makes ts-morph parse every file again.
  const populate = (project: Project, entry: LightEntry | undefined) => {
    const set: ts.CompilerOptions = {};
    if (lean) set.types = [];
    if (entry) set.paths = withRuntimePath(project.compilerOptions.get().paths, entry.file);
    project.compilerOptions.set(set);
    return { project, sourceFiles: files.map((file) => project.addSourceFileAtPath(file).compilerNode) };
  };
  const first = createProject(config);
  const entries = full || files.length === 0 ? [] : lightEntries(first, files[0]!);
  const pick = (names: ReadonlySet<string> | undefined) => {
    const file = entryFor(names, entries);
    return entries.find((entry) => entry.file === file);
  };
  const guess = pick(guessRuntimeImports(files.map((file) => readFileSync(file, "utf8"))));
  let { project, sourceFiles } = populate(first, guess);
  const entry = pick(runtimeImportsOf(sourceFiles));
  if (entry !== guess) ({ project } = populate(createProject(config), entry));
  const program = project.getProgram().compilerObject;
  if (!entry || verifyLightImports(program, entry)) return program;
  return populate(createProject(config), undefined).project.getProgram().compilerObject;
}
