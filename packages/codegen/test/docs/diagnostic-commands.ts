import { cpSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { BIN, runCli } from "../support/cli.ts";
import { REPO_ROOT } from "../support/project.ts";

/**
 * The diagnostics the error fixtures of `test/errors` (a tool module the build rejects) cannot show:
 * each folder of `diagnostics/`, named by its code, is a small project and a `command.json` that runs
 * `mcp-gen` in it; `expected.txt` is what the command prints. The reference page shows them
 * (scripts/docs/reference/diagnostics.ts).
 */
export const COMMANDS_DIR = path.join(import.meta.dirname, "diagnostics");

/** `command.json` of a fixture. `"$MCP_GEN"` in `args` or `before` is this repository's `mcp-gen`. */
export interface DiagnosticCommand {
  /** The arguments of `mcp-gen`. */
  args: string[];
  /** Commands that prepare the project (e.g. `["build"]`); each must exit 0. */
  before?: string[][];
  /** Environment variables the command gets, besides the machine's (without API keys). */
  env?: Record<string, string>;
  /** The project's files the reference shows as the input, relative to the fixture. */
  show: string[];
}

const OWN_FILES = new Set(["command.json", "expected.txt"]);

export function commandFixtures(): string[] {
  return readdirSync(COMMANDS_DIR).sort();
}

export function readCommand(name: string): DiagnosticCommand {
  return JSON.parse(readFileSync(path.join(COMMANDS_DIR, name, "command.json"), "utf8")) as DiagnosticCommand;
}

/** The environment without what would reach a provider or pick a state backend. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const kept = Object.entries(process.env).filter(([k]) => !/^(ANTHROPIC_|OPENAI_|MCP_GEN_)/.test(k));
  return { ...Object.fromEntries(kept), ...extra };
}

function expand(args: string[]): string[] {
  return args.flatMap((a) => (a === "$MCP_GEN" ? [process.execPath, BIN] : [a]));
}

/**
 * Runs a fixture's command in a copy of its project (in the system's temporary folder, so no config
 * above it is found) and returns what it printed, stdout then stderr, with the folder shown as
 * `~/project`.
 */
export async function runCommandFixture(name: string): Promise<{ code: number | null; output: string }> {
  const command = readCommand(name);
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "mcp-gen-diag-")));
  try {
    cpSync(path.join(COMMANDS_DIR, name), dir, {
      recursive: true,
      filter: (from) => !OWN_FILES.has(path.basename(from)),
    });
    // the repository's packages, as a project that installed them has (generated servers import them)
    symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
    const env = cleanEnv(command.env);
    for (const before of command.before ?? []) {
      const prepared = await runCli(expand(before), dir, env);
      if (prepared.code !== 0)
        throw new Error(`${name}: mcp-gen ${before.join(" ")} failed:\n${prepared.stderr}`);
    }
    const ran = await runCli(expand(command.args), dir, env);
    const stdout = ran.stdout && !ran.stdout.endsWith("\n") ? `${ran.stdout}\n` : ran.stdout;
    const output = `${stdout}${ran.stderr}`.replaceAll(dir, "~/project");
    return { code: ran.code, output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
