import { type ApiServer, apiNames, functionIds, renderDeclarations } from "@mcp-gen/schema/declarations";
import type * as TS from "typescript-5";
import { eraseTypes } from "./erase.ts";
import { wordDiagnostic } from "./messages.ts";
import { nonJsonReturns, outsideTheBody, type RuleProblem, refusedImports } from "./program-rules.ts";
import { API_FILE, ProgramService, SANDBOX_FILE, WRAPPER_HEAD, WRAPPER_TAIL } from "./service.ts";
import { loadTypeScript, type TypeScriptApi } from "./typescript.ts";

/** One problem of a program, at its line and column (1-based, in the program's own text). */
export interface CheckDiagnostic {
  line: number;
  column: number;
  message: string;
}

/** What `check` answers: the program as plain JavaScript, or why it may not run. */
export type CheckResult =
  | {
      ok: true;
      /** The program as plain JavaScript: the body of an async function, as the program was. */
      js: string;
    }
  | {
      ok: false;
      diagnostics: CheckDiagnostic[];
      /** Every diagnostic as `line:col message`, one a line: what the model reads. */
      message: string;
    };

/** Options of `createChecker`: the API (servers, or declarations already rendered) and the compiler. */
export type CheckerOptions = (
  | { servers: readonly ApiServer[]; declarations?: never }
  | { declarations: string; servers?: never }
) & {
  /**
   * The TypeScript compiler API to check with (`typescript` 5.x or 6.x, or ts-morph's `ts`);
   * default: `import("typescript")`, refused with a clear error when it has no JavaScript API.
   */
  typescript?: unknown;
  /**
   * Reads a library file by name (`lib.es2022.d.ts`) when the compiler has none on disk — ts-morph's
   * bundled compiler keeps them in memory: `readLib: (n) => getLibFiles().find((f) => f.fileName === n)?.text`
   * with `getLibFiles` from `@ts-morph/common`. Default: the compiler's own lib folder.
   */
  readLib?: (fileName: string) => string | undefined;
  /**
   * Ambient declarations of what else the sandbox gives a program (beside the API and `console`),
   * e.g. `declare function sleep(ms: number): Promise<void>;`.
   */
  globals?: string;
};

/** Options of one check. */
export interface CheckOptions {
  /** `typescript` (default; plain JavaScript is TypeScript too) or `javascript` (checked as JS). */
  language?: "typescript" | "javascript";
}

/** A warm checker of programs against one API: create it once, check many programs. */
export interface Checker {
  /**
   * The declarations programs are checked against: the compact form (the model reads its
   * `forModel` reading, the same API without `Promise<…>` on every function).
   */
  readonly declarations: string;
  /**
   * Type-checks a program — the body of an async function that awaits the declared functions and
   * returns a JSON value — with the ES2022 library and the declarations only, and transpiles it.
   */
  check(program: string, options?: CheckOptions): CheckResult;
}

/**
 * Creates a checker: loads TypeScript (lazily, see `loadTypeScript`) and keeps a language service
 * whose library and declaration files are parsed once, here (one empty check warms it), for every
 * check.
 *
 * @example
 * const checker = await createChecker({ servers: [apiServer(contract)] });
 * const result = checker.check('const d = await smart_home.search_devices({ query: "lamp" });\nreturn d.length;');
 * if (!result.ok) console.log(result.message); // "2:9 …"
 */
export async function createChecker(options: CheckerOptions): Promise<Checker> {
  const ts = await loadTypeScript(options.typescript);
  // an emitted api.d.ts ends with `export {};` (a module in the user's project); here it is global
  const declarations = options.servers
    ? renderDeclarations(options.servers, { compact: true })
    : options.declarations.replace(/^export \{\};?[ \t]*$/gm, "");
  const api = options.servers ? apiListing(options.servers) : namespacesOf(ts, declarations);
  const service = new ProgramService(ts, declarations, options.readLib, options.globals);
  if (!service.hasLib()) {
    throw new Error(
      `code mode's type check cannot read the ES2022 library of the TypeScript compiler it was given ` +
        `(${ts.getDefaultLibFilePath({})} does not exist): pass \`readLib\` to createChecker`,
    );
  }
  const broken = service.service
    .getSemanticDiagnostics(API_FILE)
    .concat(service.service.getSemanticDiagnostics(SANDBOX_FILE))
    .concat(service.service.getSyntacticDiagnostics(API_FILE));
  if (broken.length > 0) {
    const first = broken
      .slice(0, 3)
      .map((d) => {
        const at =
          d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
        const where = at
          ? `${d.file!.fileName.slice(d.file!.fileName.lastIndexOf("/") + 1)}:${at.line + 1}:${at.character + 1} `
          : "";
        return `${where}${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
      })
      .join("; ");
    throw new Error(`code mode's declarations do not compile (${broken.length} errors): ${first}`);
  }
  const check: Checker["check"] = (program, checkOptions = {}) =>
    checkProgram({ ts, service, api, program, language: checkOptions.language ?? "typescript" });
  // the first check parses the library and declarations: pay it here, not in the model's loop
  check("return null;");
  return { declarations, check };
}

function checkProgram(input: {
  ts: TypeScriptApi;
  service: ProgramService;
  api: ReadonlyMap<string, readonly string[]>;
  program: string;
  language: "typescript" | "javascript";
}): CheckResult {
  const { ts, service, api, program } = input;
  const name = service.update(program, input.language);
  const ls = service.service;
  const syntax = ls.getSyntacticDiagnostics(name);
  const tsProgram = ls.getProgram()!;
  const source = tsProgram.getSourceFile(name)!;
  const checker = tsProgram.getTypeChecker();
  const problems: RuleProblem[] = [...outsideTheBody(ts, source), ...refusedImports(ts, source, api)];
  const inRule = (d: TS.Diagnostic) =>
    d.start !== undefined && problems.some((p) => p.start <= d.start! && d.start! < p.end);
  const diagnostics = syntax.length > 0 ? syntax : ls.getSemanticDiagnostics(name);
  for (const d of diagnostics) {
    if (d.category !== ts.DiagnosticCategory.Error || inRule(d)) continue;
    const message = wordDiagnostic(d, { ts, checker, source, api });
    problems.push({ start: d.start ?? 0, end: (d.start ?? 0) + (d.length ?? 0), message });
  }
  if (problems.length === 0) problems.push(...nonJsonReturns(ts, checker, source));
  if (problems.length > 0) return failure(problems, source, program);
  if (input.language === "javascript") return { ok: true, js: program };
  const erased = eraseTypes(ts, source);
  if ("problems" in erased) return failure(erased.problems, source, program);
  const js = erased.js.slice(WRAPPER_HEAD.length, erased.js.length - WRAPPER_TAIL.length);
  // blanking never breaks the syntax of the programs tried; should one do, TypeScript's emit runs it
  return { ok: true, js: parsesAsJs(ts, js) ? js : transpile(ts, source.text, name) };
}

function failure(problems: RuleProblem[], source: TS.SourceFile, program: string): CheckResult {
  const lastLine = program.split("\n").length;
  const seen = new Set<string>();
  const diagnostics: CheckDiagnostic[] = [];
  for (const p of [...problems].sort((a, b) => a.start - b.start)) {
    const at = source.getLineAndCharacterOfPosition(p.start);
    // line 0 is the wrapper's head; past the program is its tail
    const line = Math.min(Math.max(at.line, 1), lastLine);
    const column = at.line < 1 || at.line > lastLine ? 1 : at.character + 1;
    const key = `${line}:${column} ${p.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    diagnostics.push({ line, column, message: p.message });
  }
  return { ok: false, diagnostics, message: [...seen].join("\n") };
}

function parsesAsJs(ts: TypeScriptApi, body: string): boolean {
  const wrapped = `${WRAPPER_HEAD}${body}${WRAPPER_TAIL}`;
  const file = ts.createSourceFile("program.js", wrapped, ts.ScriptTarget.ES2022, false, ts.ScriptKind.JS);
  // a parse alone (no program, no emit); `parseDiagnostics` is internal, so without it ask transpileModule
  const parsed = (file as unknown as { parseDiagnostics?: readonly unknown[] }).parseDiagnostics;
  if (parsed) return parsed.length === 0;
  const out = ts.transpileModule(wrapped, { fileName: "program.js", reportDiagnostics: true });
  return (out.diagnostics ?? []).length === 0;
}

/** The program's body as JavaScript by TypeScript's emit (lines may move), out of the wrapper. */
function transpile(ts: TypeScriptApi, wrapped: string, fileName: string): string {
  const out = ts.transpileModule(wrapped, {
    fileName,
    reportDiagnostics: false,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, removeComments: false },
  }).outputText;
  const start = out.indexOf(WRAPPER_HEAD.trimEnd());
  const body = out.slice(start + WRAPPER_HEAD.length, out.lastIndexOf(WRAPPER_TAIL.trim()));
  return body
    .split("\n")
    .map((l) => l.replace(/^ {4}/, ""))
    .join("\n")
    .trimEnd();
}

function apiListing(servers: readonly ApiServer[]): Map<string, string[]> {
  const names = apiNames(servers);
  return new Map(servers.map((s) => [names.get(s.name)!.namespace, functionIds(names.get(s.name)!)]));
}

/** Namespaces and their functions read from declaration text (when no servers were given). */
function namespacesOf(ts: TypeScriptApi, declarations: string): Map<string, string[]> {
  const source = ts.createSourceFile("api.d.ts", declarations, ts.ScriptTarget.ES2022);
  const api = new Map<string, string[]>();
  for (const s of source.statements) {
    if (!ts.isModuleDeclaration(s) || !s.body || !ts.isModuleBlock(s.body)) continue;
    const functions = s.body.statements.filter(ts.isFunctionDeclaration).map((f) => f.name?.text ?? "");
    api.set(s.name.text, [...new Set(functions)]);
  }
  return api;
}
