import path from "node:path";
import { type Project, ts } from "ts-morph";

const RUNTIME = "@mcp-gen/runtime";

/** Entries of the runtime that declare only what tool modules use, lightest first. */
const LIGHT_ENTRIES = ["@mcp-gen/runtime/tags", "@mcp-gen/runtime/tool"];

/** An entry of the runtime lighter than the root one: its file and the names it exports. */
export interface LightEntry {
  file: string;
  exports: ReadonlySet<string>;
}

/**
 * The runtime's root entry also exports the server, the clients and the agent, whose declarations
 * bring the MCP, Anthropic and OpenAI SDKs into the program: about 6 MB of `.d.ts` to read, parse
 * and bind for tool modules that import `Int` from it. When every import of `@mcp-gen/runtime` in
 * the tool modules names things a lighter entry exports (`/tags`, else `/tool`), the extraction
 * program resolves the root entry to that entry with a `paths` mapping: the same declarations, so
 * the same types and diagnostics, from a fraction of the files. These are the lighter entries as
 * resolved from `fromFile`, lightest first; none when the project maps `@mcp-gen/runtime` itself.
 *
 * @example
 * const entry = entryFor(runtimeImportsOf(sourceFiles), lightEntries(project, sourceFiles[0].fileName));
 */
export function lightEntries(project: Project, fromFile: string): LightEntry[] {
  const options = project.compilerOptions.get();
  if (options.paths?.[RUNTIME]) return [];
  const host = project.getModuleResolutionHost();
  const entries: LightEntry[] = [];
  for (const entry of LIGHT_ENTRIES) {
    const resolved = ts.resolveModuleName(entry, fromFile, options, host).resolvedModule;
    const exports = resolved && exportedNames(resolved.resolvedFileName, host);
    if (exports) entries.push({ file: resolved.resolvedFileName, exports });
  }
  return entries;
}

/** The lightest entry that exports every name of `names`; `undefined` when none does or nothing is imported. */
export function entryFor(
  names: ReadonlySet<string> | undefined,
  entries: readonly LightEntry[],
): string | undefined {
  if (!names || names.size === 0) return undefined;
  return entries.find((entry) => [...names].every((name) => entry.exports.has(name)))?.file;
}

/**
 * The names the tool modules import from `@mcp-gen/runtime` in their top-level declarations;
 * `undefined` for a default or namespace import or a re-export, which need the root entry.
 * (`verifyLightImports` checks the other files and import types once the program exists.)
 */
export function runtimeImportsOf(files: readonly ts.SourceFile[]): Set<string> | undefined {
  const names = new Set<string>();
  for (const file of files) {
    for (const statement of file.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const spec = statement.moduleSpecifier;
      if (!spec || !ts.isStringLiteral(spec) || spec.text !== RUNTIME) continue;
      const imported = ts.isImportDeclaration(statement) ? importedNames(statement) : undefined;
      if (!imported) return undefined;
      for (const name of imported) names.add(name);
    }
  }
  return names;
}

const NAMED_IMPORT = /\bimport\s+(?:type\s+)?\{([^}]*)\}\s*from\s*["']@mcp-gen\/runtime["']/g;

/**
 * A guess of `runtimeImportsOf` from the modules' text, before they are parsed: the program's
 * options (the `paths` mapping) are best set before any file is added, as changing them makes
 * ts-morph parse every file again. A wrong guess costs a second parse, never a wrong program.
 */
export function guessRuntimeImports(texts: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(NAMED_IMPORT)) {
      for (const part of match[1]!.split(",")) {
        const name = part
          .trim()
          .replace(/^type\s+/, "")
          .split(/\s+as\s+/)[0]!
          .trim();
        if (name) names.add(name);
      }
    }
  }
  return names;
}

/** The project's `paths` with the root entry of the runtime mapped to `file`. */
export function withRuntimePath(paths: ts.MapLike<string[]> | undefined, file: string): ts.MapLike<string[]> {
  return { ...paths, [RUNTIME]: [file] };
}

/**
 * True when every use of `@mcp-gen/runtime` in the program (module specifiers of imports, exports
 * and import types, as TypeScript collected them) is a named import of what `entry` exports.
 */
export function verifyLightImports(program: ts.Program, entry: LightEntry): boolean {
  const exported = entry.exports;
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
