import { spawn } from "node:child_process";
import path from "node:path";
import { REPO_ROOT } from "./project.ts";

export const BIN = path.join(REPO_ROOT, "packages/codegen/bin/mcp-gen.js");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real `mcp-gen` CLI in a child process (`env` replaces the environment when given). */
export function runCli(args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<CliResult> {
  return runNode(BIN, args, cwd, env);
}

/**
 * Runs `node <script> <args>` in a child process, outside this vitest run: vitest's worker
 * variables are left out of its environment (`env` replaces the environment when given).
 */
export function runNode(
  script: string,
  args: string[],
  cwd: string,
  env?: NodeJS.ProcessEnv,
): Promise<CliResult> {
  const base = Object.fromEntries(
    Object.entries(env ?? process.env).filter(([k]) => !/^(VITEST|__VITEST)/.test(k)),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { cwd, env: { ...base, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
