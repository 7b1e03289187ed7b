import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import type { Contract, Target } from "@mcp-gen/schema";
import { beforeAll, describe, expect, it } from "vitest";
import { readContract } from "../../src/contract/read.ts";
import { emitServer } from "../../src/emit/index.ts";
import { contractCases } from "../providers/cases.ts";
import { REPO_ROOT } from "../support/project.ts";
import { COMPILERS, type Compiler, runTsc, STRICT_FLAGS, type TscError } from "../support/tsc.ts";

/**
 * Every generated file compiles without an error under the strictest common flags, with
 * TypeScript 5 and 7: the repository's generated/ and the golden output of every fixture (as
 * committed, `.ts` imports), and every contract of both emitted again with `.js` imports (checked
 * under NodeNext without `allowImportingTsExtensions`, as projects that emit JavaScript are) and
 * with none (checked under `moduleResolution: "bundler"`).
 *
 * The runtime resolves to its sources (the `@mcp-gen/source` condition), so only errors in
 * generated files count: the runtime's own sources, the examples and the fixture tools are the
 * program's context, not its subject. `skipLibCheck` is off.
 */
const TEST = path.resolve(import.meta.dirname, "..");
const FIXTURES = path.join(TEST, "fixtures");
const EXPECTED = path.join(FIXTURES, "contracts/expected");
const TMP = path.join(TEST, ".tmp", "strict-compile");

const BASE_OPTIONS = {
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  customConditions: ["@mcp-gen/source"],
  lib: ["ES2023"],
  types: ["node"],
  resolveJsonModule: true,
  noEmit: true,
  skipLibCheck: false,
  ...STRICT_FLAGS,
};

/** A file of each flag's kind of error: proves the flags are in force in both compilers. */
const CANARY = `import { Int } from "@mcp-gen/runtime";
export const int: Int = 1;
export const optional: { a?: number } = { a: undefined };
const list: number[] = [];
export const first: number = list[0];
const scores: Record<string, number> = {};
export const score = scores.key;
export enum Mode { A }
class Base { run(): void {} }
export class Derived extends Base { run(): void {} }
`;
const CANARY_CODES = ["TS1294", "TS1484", "TS2322", "TS2375", "TS4111", "TS4114"];

/** In the programs without `.ts` imports: a `.ts` specifier is an error (TS5097). */
const NO_TS_CANARY = 'export { tools } from "./generated/repo-economics/tools.ts";\n';

const MODES = {
  ts: ".ts imports",
  js: ".js imports, NodeNext",
  none: "imports without extension, bundler resolution",
} as const;

type Mode = keyof typeof MODES;

interface Program {
  tsconfig: string;
  /** The generated files checked (as checked → as shown). */
  files: Map<string, string>;
  canary: { file: string; codes: string[] };
}

const programs = new Map<Mode, Program>();

const codeFile = (f: string) => f.endsWith(".ts");
const shown = (f: string) => path.relative(REPO_ROOT, f).split(path.sep).join("/");

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

function writeTsconfig(dir: string, options: object, files: Iterable<string>): string {
  const tsconfig = path.join(dir, "tsconfig.json");
  writeFileSync(tsconfig, JSON.stringify({ compilerOptions: options, files: [...files] }, null, 2));
  return tsconfig;
}

/**
 * The committed output with `.ts` imports. A fixture's golden `server.ts.snap` imports its tool
 * module as `../../<case>/tools.ts` from `generated/<case>/`: it is checked in a copy of that
 * layout, beside the fixture's other golden files.
 */
function tsModeProgram(): Program {
  const dir = path.join(TMP, "ts");
  const files = new Map<string, string>();
  for (const f of [...listFiles(path.join(REPO_ROOT, "generated")), ...listFiles(EXPECTED)])
    if (codeFile(f)) files.set(f, f);
  for (const name of readdirSync(FIXTURES).sort()) {
    const types = path.join(FIXTURES, name, "expected/types.ts");
    if (existsSync(types)) files.set(types, types);
    const snap = path.join(FIXTURES, name, "expected/server.ts.snap");
    if (!existsSync(snap)) continue;
    const out = path.join(dir, "generated", name);
    mkdirSync(path.join(dir, name), { recursive: true });
    copyFileSync(path.join(FIXTURES, name, "tools.ts"), path.join(dir, name, "tools.ts"));
    for (const f of listFiles(path.join(EXPECTED, `ts-${name}`))) {
      const target = path.join(out, path.relative(path.join(EXPECTED, `ts-${name}`), f));
      mkdirSync(path.dirname(target), { recursive: true });
      copyFileSync(f, target);
    }
    writeFileSync(path.join(out, "server.ts"), readFileSync(snap, "utf8"));
    files.set(path.join(out, "server.ts"), snap);
  }
  const canary = path.join(dir, "canary.ts");
  writeFileSync(canary, CANARY);
  const tsconfig = writeTsconfig(dir, { ...BASE_OPTIONS, allowImportingTsExtensions: true }, [
    ...files.keys(),
    canary,
  ]);
  return { tsconfig, files, canary: { file: canary, codes: CANARY_CODES } };
}

/**
 * Every fixture contract and every contract of the repository emitted with `.js` or no import
 * extension into `generated/<name>/` of a folder, so that each server.ts imports the real tool
 * modules: the fixture folders are linked into it, the repository's are reached from its root.
 */
function emittedProgram(mode: "js" | "none"): Program {
  const dir = path.join(TMP, mode);
  const link = (target: string, name: string) => {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    if (!existsSync(path.join(dir, name))) symlinkSync(target, path.join(dir, name), "junction");
  };
  const emit = (contract: Contract, name: string, root: string, targets?: readonly Target[]) => {
    const { files } = emitServer(contract, {
      contractFile: `${name}.tools.json`,
      outDir: path
        .relative(root, path.join(dir, "generated", name))
        .split(path.sep)
        .join("/"),
      importExtension: mode === "js" ? ".js" : "",
      ...(targets ? { targets } : {}),
    });
    for (const file of files) {
      mkdirSync(path.dirname(path.join(root, file.path)), { recursive: true });
      writeFileSync(path.join(root, file.path), file.content);
    }
  };
  for (const c of contractCases()) {
    if (c.name.startsWith("ts-")) link(path.join(FIXTURES, c.name.slice(3)), c.name.slice(3));
    emit(c.contract, c.name, dir, c.targets);
  }
  const schemas = path.join(REPO_ROOT, "schemas");
  for (const f of readdirSync(schemas).filter((f) => f.endsWith(".tools.json")))
    emit(readContract(path.join(schemas, f)), `repo-${f.slice(0, -".tools.json".length)}`, REPO_ROOT);
  const files = new Map(
    listFiles(path.join(dir, "generated"))
      .filter(codeFile)
      .map((f) => [f, f] as const),
  );
  const canary = path.join(dir, "canary.ts");
  writeFileSync(canary, NO_TS_CANARY);
  const options =
    mode === "js" ? BASE_OPTIONS : { ...BASE_OPTIONS, module: "preserve", moduleResolution: "bundler" };
  const tsconfig = writeTsconfig(dir, options, [...files.keys(), canary]);
  return { tsconfig, files, canary: { file: canary, codes: ["TS5097"] } };
}

const results = new Map<string, Promise<TscError[]>>();
const key = (compiler: Compiler, mode: Mode) => `${compiler} ${mode}`;

beforeAll(() => {
  rmSync(TMP, { recursive: true, force: true });
  programs.set("ts", tsModeProgram());
  programs.set("js", emittedProgram("js"));
  programs.set("none", emittedProgram("none"));
  // All checks run side by side; each test awaits its own.
  for (const compiler of Object.keys(COMPILERS) as Compiler[])
    for (const [mode, program] of programs)
      results.set(key(compiler, mode), runTsc(compiler, program.tsconfig));
});

// Six compilations run side by side (TypeScript 5's takes 30 s alone on a busy 2-core machine):
// a generous limit, not a measure of speed.
describe.each(Object.keys(COMPILERS) as Compiler[])("generated code under strict flags, %s", {
  timeout: 300_000,
}, (compiler) => {
  const modes = (Object.entries(MODES) as [Mode, string][]).map(([mode, label]) => [label, mode] as const);
  it.each(modes)("compiles with no error: %s", async (_, mode) => {
    const program = programs.get(mode)!;
    const errors = await results.get(key(compiler, mode))!;
    const ours = errors
      .filter((e) => e.file === undefined || program.files.has(e.file) || e.file === program.tsconfig)
      .map((e) => (e.file ? `${shown(program.files.get(e.file) ?? e.file)}:${e.line} ${e.text}` : e.text));
    expect(ours).toStrictEqual([]);
    // The check is live: every generated file is in the program and the flags are in force.
    expect(program.files.size).toBeGreaterThan(200);
    const canary = errors.filter((e) => e.file === program.canary.file).map((e) => e.text.split(":")[0]);
    expect(canary.sort()).toStrictEqual(program.canary.codes);
  });
});
