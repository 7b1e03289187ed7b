import { spawn } from "node:child_process";
import path from "node:path";

/** The repository root: the consumer projects live outside it and never use its node_modules. */
export const REPO_ROOT = path.resolve(import.meta.dirname, "../../../..");

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The command line as typed, for messages. */
  shown: string;
}

export interface RunOptions {
  cwd: string;
  /** Added to (or, with `undefined`, removed from) the clean environment of `childEnv()`. */
  env?: Record<string, string | undefined>;
  /** Written to the child's stdin, which is then closed. */
  input?: string;
  /** Killed after this long (default 5 minutes): a hung child fails the test instead of hanging it. */
  timeoutMs?: number;
}

/** Set by `refuseNetwork()`: added to every child's environment. */
let guard: Record<string, string> = {};

/**
 * From now on npm in child processes goes through a proxy at 127.0.0.1:9, where nothing listens:
 * a request that should have been answered from npm's cache fails at once instead of reaching the
 * registry (cached responses are found by URL, so a proxy changes nothing for them).
 */
export function refuseNetwork(): void {
  guard = { npm_config_proxy: "http://127.0.0.1:9", npm_config_https_proxy: "http://127.0.0.1:9" };
}

/**
 * The environment of a consumer's commands: the test's own, without what the repository's tooling
 * put there — `npm test`'s `npm_*` variables (but the cache), the outer vitest's variables, the
 * repository's `node_modules/.bin` on PATH — so every command finds the consumer project's tools.
 */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const lower = key.toLowerCase();
    if (lower.startsWith("npm_") && lower !== "npm_config_cache") continue;
    if (key.startsWith("VITEST") || ["NODE_OPTIONS", "TEST", "FORCE_COLOR", "INIT_CWD"].includes(key))
      continue;
    env[key] = value;
  }
  env.PATH = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir !== "" && !path.resolve(dir).startsWith(REPO_ROOT + path.sep))
    .join(path.delimiter);
  env.NO_COLOR = "1";
  for (const [key, value] of Object.entries({ ...guard, ...extra })) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Runs a command (no shell) and collects its output; never rejects for a non-zero exit. */
export function run(command: string, args: readonly string[], options: RunOptions): Promise<Ran> {
  const shown = [command, ...args].map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a)).join(" ");
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: childEnv(options.env) });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      stderr += `\n[killed: still running after ${options.timeoutMs ?? 300_000} ms]`;
      child.kill("SIGKILL");
    }, options.timeoutMs ?? 300_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`${shown} (in ${options.cwd}) could not start: ${error.message}`));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, shown });
    });
    // a command that exits without reading its input closes the pipe first (EPIPE): its exit code
    // and output tell what happened, so the write error is not one of its own
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
  });
}

const tail = (text: string, lines: number) => text.trimEnd().split("\n").slice(-lines).join("\n");

/** What a failed command said, for assertion messages. */
export function describeRun(ran: Ran, cwd: string): string {
  return [
    `${ran.shown}\n  in ${cwd}\n  exited with ${ran.code}`,
    `--- stderr ---\n${tail(ran.stderr, 60) || "(empty)"}`,
    `--- stdout (end) ---\n${tail(ran.stdout, 40) || "(empty)"}`,
  ].join("\n");
}

/** Runs a command that must succeed: a non-zero exit throws with its stderr and the end of its stdout. */
export async function ok(command: string, args: readonly string[], options: RunOptions): Promise<Ran> {
  const ran = await run(command, args, options);
  if (ran.code !== 0) throw new Error(describeRun(ran, options.cwd));
  return ran;
}

/**
 * Starts an MCP server over stdio, sends `initialize` and resolves with the JSON-RPC response
 * (then ends its stdin and stops it); rejects with its stderr when it exits without answering.
 */
export function mcpInitialize(command: string, args: readonly string[], cwd: string): Promise<unknown> {
  const request = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "test", version: "1.0.0" },
    },
  };
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: childEnv() });
    let stdout = "";
    let stderr = "";
    let answered = false;
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
      const lines = stdout.split("\n");
      stdout = lines.pop() ?? "";
      for (const line of lines) {
        const message = parseJson(line) as { id?: unknown } | undefined;
        if (answered || message?.id !== 1) continue;
        answered = true;
        resolve(message);
        // ending stdin stops a stdio server; the kill is for one that does not
        child.stdin.end();
        setTimeout(() => child.kill(), 5_000).unref();
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (!answered)
        reject(new Error(`${command} ${args.join(" ")} exited with ${code} without answering\n${stderr}`));
    });
    // a server that exits at once closes the pipe (EPIPE); `close` above reports it with its stderr
    child.stdin.on("error", () => {});
    child.stdin.write(`${JSON.stringify(request)}\n`);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The last line of stdout parsed as JSON: what the consumer scripts print as their report. */
export function reportOf(ran: Ran): unknown {
  const last = ran.stdout.trimEnd().split("\n").pop() ?? "";
  try {
    return JSON.parse(last);
  } catch {
    throw new Error(`${ran.shown} printed no JSON report\n${describeRun(ran, "")}`);
  }
}
