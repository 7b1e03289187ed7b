import path from "node:path";
import { type Project, ts } from "ts-morph";

const RUNTIME = "@mcp-gen/runtime";

/** Entries of the runtime that declare only what tool modules use, lightest first. */
const LIGHT_ENTRIES = ["@mcp-gen/runtime/tags", "@mcp-gen/runtime/tool"];

/**
 * The runtime's root entry also exports the server, the clients and the agent, whose declarations
 * bring the MCP, Anthropic and OpenAI SDKs into the program: about 6 MB of `.d.ts` to read, parse
 * and bind for tool modules that import `Int` from it. When every import of `@mcp-gen/runtime` in
 * the tool modules names things a lighter entry exports (`/tags`, else `/tool`), the extraction
 * program resolves the root entry to that entry with a `paths` mapping: the same declarations, so
 * the same types and diagnostics, from a fraction of the files. Returns the file the root entry
 * should resolve to, or `undefined` to leave resolution alone (nothing to gain, a namespace or
 * default import, a re-export, names only the root entry has, a `paths` entry of the project's
 * own). `verifyLightImports` then checks every file of the program, as other files (helpers the
 * tool modules import, `import("@mcp-gen/runtime")` types) may use the root entry too.
 *
 * @example
 * const light = lightRuntimeEntry(project, files.map((f) => project.getSourceFileOrThrow(f).compilerNode));
 * if (light) project.compilerOptions.set({ paths: withRuntimePath(project.compilerOptions.get().paths, light) });
 */
export function lightRuntimeEntry(project: Project, toolFiles: readonly ts.SourceFile[]): string | undefined {
  const options = project.compilerOptions.get();
  if (options.paths?.[RUNTIME] || toolFiles.length === 0) {
    return undefined;
  }
  const names = new Set<string>();
  for (const file of toolFiles) {
    for (const statement of file.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const spec = statement.moduleSpecifier;
      if (!spec || !ts.isStringLiteral(spec) || spec.text !== RUNTIME) continue;
      const imported = ts.isImportDeclaration(statement) ? importedNames(statement) : undefined;
      if (!imported) return undefined;
      for (const name of imported) names.add(name);
    }
  }
  if (names.size === 0) return undefined;
  const host = project.getModuleResolutionHost();
  for (const entry of LIGHT_ENTRIES) {
    const resolved = ts.resolveModuleName(entry, toolFiles[0]!.fileName, options, host).resolvedModule;
    if (!resolved) continue;
    const exported = exportedNames(resolved.resolvedFileName, host);
    if (exported && [...names].every((name) => exported.has(name))) return resolved.resolvedFileName;
  }
  return undefined;
}

/** The project's `paths` with the root entry of the runtime mapped to `file`. */
export function withRuntimePath(paths: ts.MapLike<string[]> | undefined, file: string): ts.MapLike<string[]> {
  return { ...paths, [RUNTIME]: [file] };
}

/**
 * True when every use of `@mcp-gen/runtime` in the program (module specifiers of imports, exports
 * and import types, as TypeScript collected them) is a named import of what `file` exports.
 */
export function verifyLightImports(
  program: ts.Program,
  file: string,
  host: ts.ModuleResolutionHost,
): boolean {
  const exported = exportedNames(file, host);
  if (!exported) return false;
  for (const sf of program.getSourceFiles()) {
    const imports = (sf as { imports?: readonly ts.StringLiteralLike[] }).imports;
    if (!imports) return false;
    for (const literal of imports) {
      if (literal.text !== RUNTIME) continue;
      const declaration = literal.parent;
      if (!ts.isImportDeclaration(declaration) || declaration.moduleSpecifier !== literal) return false;
      const names = importedNames(declaration);
      if (!names?.every((name) => exported.has(name))) return false;
    }
  }
  return true;
}

/** Names a named (or bare) import declaration takes; `undefined` for default and namespace imports. */
function importedNames(declaration: ts.ImportDeclaration): string[] | undefined {
  const clause = declaration.importClause;
  if (!clause) return [];
  if (clause.name || !clause.namedBindings || !ts.isNamedImports(clause.namedBindings)) return undefined;
  return clause.namedBindings.elements.map((e) => (e.propertyName ?? e.name).text);
}

/**
 * Names a module exports, from its syntax: exported declarations, export lists and `export *`
 * from relative modules. `undefined` when it cannot tell.
 */
function exportedNames(
  file: string,
  host: ts.ModuleResolutionHost,
  seen = new Set<string>(),
): Set<string> | undefined {
  if (seen.has(file)) return new Set();
  seen.add(file);
  const text = host.readFile(file);
  if (text === undefined) return undefined;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const names = new Set<string>();
  for (const statement of sf.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause;
      if (clause && ts.isNamedExports(clause)) {
        for (const element of clause.elements) names.add(element.name.text);
      } else if (clause) {
        names.add(clause.name.text);
      } else {
        const spec = statement.moduleSpecifier;
        if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith(".")) return undefined;
        const inner = exportedNames(path.resolve(path.dirname(file), spec.text), host, seen);
        if (!inner) return undefined;
        for (const name of inner) names.add(name);
      }
      continue;
    }
    const modifiers = ts.canHaveModifiers(statement) ? ts.getModifiers(statement) : undefined;
    if (!modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) names.add("default");
    else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) names.add(d.name.text);
      }
    } else {
      const name = (statement as { name?: ts.Node }).name;
      if (name && ts.isIdentifier(name)) names.add(name.text);
    }
  }
  return names;
}
