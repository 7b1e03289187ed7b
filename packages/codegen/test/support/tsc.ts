import { spawn } from "node:child_process";
import path from "node:path";
import { REPO_ROOT } from "./project.ts";

/** The compilers generated code must satisfy: TypeScript 5.x (JavaScript) and 7.x (native). */
export const COMPILERS = {
  "typescript 5": path.join(REPO_ROOT, "node_modules/typescript-5/bin/tsc"),
  "typescript 7": path.join(REPO_ROOT, "node_modules/typescript/bin/tsc"),
} as const;

export type Compiler = keyof typeof COMPILERS;

/** The strictest common flags: generated code compiles under every one of them. */
export const STRICT_FLAGS = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noPropertyAccessFromIndexSignature: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  erasableSyntaxOnly: true,
} as const;

/** One error of `tsc --pretty false`; `file` is absolute, or absent for errors about the options. */
export interface TscError {
  file?: string;
  line?: number;
  text: string;
}

const LOCATED = /^(.+)\((\d+),(\d+)\): error (TS\d+: .*)$/;

/**
 * Runs `tsc -p <project> --pretty false` of a compiler in a child process (so several run side by
 * side) and returns its errors, chained messages joined.
 */
export function runTsc(compiler: Compiler, project: string): Promise<TscError[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [COMPILERS[compiler], "-p", project, "--pretty", "false"], {
      cwd: path.dirname(project),
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    child.on("error", reject);
    child.on("close", () => resolve(parseTsc(out, path.dirname(project))));
  });
}

function parseTsc(out: string, cwd: string): TscError[] {
  const errors: TscError[] = [];
  for (const line of out.split(/\r?\n/)) {
    if (line === "") continue;
    const last = errors[errors.length - 1];
    if (line.startsWith(" ") && last) {
      last.text += `\n${line}`;
      continue;
    }
    const match = LOCATED.exec(line);
    errors.push(
      match
        ? { file: path.resolve(cwd, match[1]!), line: Number(match[2]), text: match[4]! }
        : { text: line },
    );
  }
  return errors;
}
