import type * as TS from "typescript-5";
import type { TypeScriptApi } from "./typescript.ts";

/** Where the virtual files live: nothing here exists on disk. */
export const ROOT = "/mcp-gen-code/";
export const API_FILE = `${ROOT}api.d.ts`;
export const SANDBOX_FILE = `${ROOT}sandbox.d.ts`;

/** What the sandbox gives a program besides the declared functions: a captured `console`. */
const SANDBOX_GLOBALS = `declare var console: {
  log(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  debug(...data: unknown[]): void;
};
`;

/** The first line of the wrapper a program's text is checked in: line 1 of the program is line 2. */
export const WRAPPER_HEAD = "async function __mcpGenProgram() {\n";
export const WRAPPER_TAIL = "\n}\n";

/**
 * A language service over three virtual files (the sandbox's globals, the API's declarations, the
 * program) and the ES2022 library from the compiler's own folder. The library and declaration
 * files never change, so every check after the first reuses their parsed and bound source files
 * (the service's document registry); only the program is parsed again.
 */
export class ProgramService {
  readonly service: TS.LanguageService;
  private program = { name: `${ROOT}program.ts`, text: "", version: 0 };
  private readonly files: Map<string, string>;
  private readonly disk = new Map<string, string | undefined>();

  constructor(
    private readonly ts: TypeScriptApi,
    declarations: string,
    private readonly readLib?: (fileName: string) => string | undefined,
    extraGlobals = "",
  ) {
    this.files = new Map([
      [SANDBOX_FILE, `${SANDBOX_GLOBALS}${extraGlobals}`],
      [API_FILE, declarations],
    ]);
    const options: TS.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es2022.d.ts"],
      types: [],
      noEmit: true,
      strict: true,
      // a helper's unannotated parameter is `any`, as in plain JavaScript; calls to the API stay checked
      noImplicitAny: false,
      allowJs: true,
      checkJs: true,
      skipLibCheck: false,
      skipDefaultLibCheck: true,
      noFallthroughCasesInSwitch: true,
      useUnknownInCatchVariables: true,
    };
    const host: TS.LanguageServiceHost = {
      getCompilationSettings: () => options,
      getScriptFileNames: () => [SANDBOX_FILE, API_FILE, this.program.name],
      getScriptVersion: (f) => (f === this.program.name ? String(this.program.version) : "0"),
      getScriptSnapshot: (f) => {
        const text = this.read(f);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => ROOT,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: (f) => this.read(f) !== undefined,
      readFile: (f) => this.read(f),
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry());
  }

  /** Whether the ES2022 library can be read (a compiler bundled without its lib files cannot). */
  hasLib(): boolean {
    const main = this.ts.getDefaultLibFilePath({});
    return this.read(`${main.slice(0, main.lastIndexOf("/") + 1)}lib.es2022.d.ts`) !== undefined;
  }

  /** Sets the program's text (wrapped) and returns its file name. */
  update(text: string, language: "typescript" | "javascript"): string {
    const name = `${ROOT}program.${language === "javascript" ? "js" : "ts"}`;
    this.program = { name, text: `${WRAPPER_HEAD}${text}${WRAPPER_TAIL}`, version: this.program.version + 1 };
    return name;
  }

  private read(file: string): string | undefined {
    if (file === this.program.name) return this.program.text;
    const virtual = this.files.get(file);
    if (virtual !== undefined || file.startsWith(ROOT)) return virtual;
    if (!this.disk.has(file)) {
      const base = file.slice(file.lastIndexOf("/") + 1);
      this.disk.set(file, this.readLib?.(base) ?? this.ts.sys.readFile(file));
    }
    return this.disk.get(file);
  }
}
