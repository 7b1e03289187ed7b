import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { type Diagnostic, diagnostic } from "@mcp-gen/schema";
import type { ResolvedConfig } from "../config/load.ts";
import { DEFAULT_OPTIONS, tsconfigOptions } from "./project.ts";

/** A type-check running in a child process; `result` is `undefined` when it could not decide. */
export interface NativeCheck {
  result: Promise<Diagnostic[] | undefined>;
  cancel(): void;
}

/**
 * Starts TypeScript 7's native `tsc` (the project's `typescript` package, when it is version 7 or
 * later) on the tool modules, to run while ts-morph extracts. Returns `undefined` when there is no
 * native compiler or `MCP_GEN_NATIVE_CHECK=0`; the caller then checks in process. The result is
 * the errors in the tool modules (as the in-process check reports them), or `undefined` when
 * `tsc` failed or rejected the compiler options (TypeScript 7 removed some), so the caller falls
 * back too.
 *
 * @example
 * const check = startNativeCheck(config, files);
 * const errors = (await check?.result) ?? typeErrors(program, sourceFiles, config.root);
 */
export function startNativeCheck(config: ResolvedConfig, files: readonly string[]): NativeCheck | undefined {
  if (process.env.MCP_GEN_NATIVE_CHECK === "0" || files.length === 0) return undefined;
  const exe = nativeTsc(config.root);
  if (!exe) return undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-check-"));
  const project = path.join(dir, "tsconfig.json");
  writeFileSync(project, JSON.stringify(checkConfig(config, files)));
  const child = spawn(exe, ["-p", project, "--pretty", "false", "--singleThreaded"], {
    cwd: config.root,
    stdio: ["ignore", "pipe", "ignore"],
  });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  const result = new Promise<Diagnostic[] | undefined>((resolve) => {
    child.on("error", () => resolve(undefined));
    child.on("close", (code) => {
      rmSync(dir, { recursive: true, force: true });
      resolve(code === 0 || code === 1 || code === 2 ? parseOutput(out, config.root, files) : undefined);
    });
  });
  return { result, cancel: () => child.kill() };
}

/** The native `tsc` of TypeScript ≥ 7 the project (or mcp-gen) resolves, if any. */
function nativeTsc(root: string): string | undefined {
  for (const from of [path.join(root, "package.json"), import.meta.filename]) {
    try {
      const require = createRequire(from);
      const pkgFile = require.resolve("typescript/package.json");
      const version = (require(pkgFile) as { version: string }).version;
      if (Number(version.split(".")[0]) < 7) continue;
      const platform = `@typescript/typescript-${process.platform}-${process.arch}/package.json`;
      const exe = path.join(path.dirname(createRequire(pkgFile).resolve(platform)), "lib", "tsc");
      if (existsSync(exe)) return exe;
    } catch {
      // not installed here: try the next place
    }
  }
  return undefined;
}

/**
 * A tsconfig for the check, in a temporary folder: the project's tsconfig with strict null checks
 * (as the extraction program) and only the tool modules, or mcp-gen's defaults without one. Type
 * roots and the root folder are spelled out because by default they are found from the tsconfig's
 * folder.
 */
function checkConfig(config: ResolvedConfig, files: readonly string[]): object {
  const base = config.tsconfig ? tsconfigOptions(config.tsconfig) : DEFAULT_OPTIONS;
  const from = config.tsconfig ? path.dirname(config.tsconfig) : process.cwd();
  const compilerOptions = {
    ...(config.tsconfig ? { strictNullChecks: true } : defaultOptionsJson()),
    noEmit: true,
    incremental: false,
    composite: false,
    ...(base.typeRoots ? {} : { typeRoots: defaultTypeRoots(from) }),
    // TypeScript ≥ 6 puts `rootDir` by default at the folder of the tsconfig (this temporary one)
    // and, with an `outDir`, refuses files outside it (TS6059); nothing is emitted here.
    ...(base.rootDir ? {} : { rootDir: path.parse(from).root }),
  };
  return {
    ...(config.tsconfig ? { extends: config.tsconfig } : {}),
    compilerOptions,
    include: [],
    files,
  };
}

function defaultOptionsJson(): object {
  return {
    target: "es2022",
    module: "nodenext",
    moduleResolution: "nodenext",
    strict: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    types: DEFAULT_OPTIONS.types,
  };
}

function defaultTypeRoots(from: string): string[] {
  const roots: string[] = [];
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", "@types");
    if (existsSync(candidate)) roots.push(candidate);
    if (path.dirname(dir) === dir) return roots;
  }
}

const LOCATED = /^(.+)\((\d+),(\d+)\): error TS(\d+): (.*)$/;

/**
 * Errors of `tsc --pretty false` in the tool modules: `file(line,col): error TSn: text`, chained
 * messages continued on indented lines. `undefined` for errors about the options or the
 * configuration (codes 5000–6999, or without a file), which the in-process check must judge.
 */
export function parseOutput(out: string, root: string, files: readonly string[]): Diagnostic[] | undefined {
  const tools = new Set(files);
  const result: { file: string; line: number; column: number; code: number; lines: string[] }[] = [];
  let current: (typeof result)[number] | undefined;
  for (const line of out.split(/\r?\n/)) {
    if (line === "") continue;
    if (line.startsWith(" ") && current) {
      current.lines.push(line);
      continue;
    }
    const match = LOCATED.exec(line);
    if (!match) return undefined;
    const code = Number(match[4]);
    if (code >= 5000 && code < 7000) return undefined;
    current = {
      file: path.resolve(root, match[1]!),
      line: Number(match[2]),
      column: Number(match[3]),
      code,
      lines: [match[5]!],
    };
    result.push(current);
  }
  return result
    .filter((d) => tools.has(d.file))
    .map((d) =>
      diagnostic("MCPG010", `TS${d.code}: ${d.lines.join("\n")}`, {
        location: {
          file: path.relative(root, d.file).split(path.sep).join("/"),
          line: d.line,
          column: d.column,
        },
      }),
    );
}
