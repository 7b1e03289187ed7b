import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";

/**
 * The harness of the shared-state replica tests, in this package (`server-replicas.test.ts`,
 * replicas in this process) and in @mcp-gen/codegen (`serve-state-*.test.ts`, `mcp-gen serve`
 * child processes): raw 2026-07-28 requests to one replica, bounded polling of an observable
 * state, and a replica process that resolves once it serves.
 */

/** The 2026-07-28 envelope of every request: tasks and elicitation declared. */
const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "replicas-test", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {
    elicitation: {},
    extensions: { "io.modelcontextprotocol/tasks": {} },
  },
};

/** A 2026-07-28 request (no session: any replica may answer it); its result, or an error naming what failed. */
export async function call(
  url: string,
  method: string,
  params: Record<string, unknown>,
  name?: string,
): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": method,
      ...(name ? { "mcp-name": name } : {}),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: META } }),
  });
  const body = (await response.json()) as { result?: Record<string, unknown>; error?: unknown };
  if (!body.result)
    throw new Error(`${method} through ${url}: ${response.status} ${JSON.stringify(body.error)}`);
  return body.result;
}

/** Polls `read` every 50 ms, at most `attempts` times, until `done` holds; its last value. */
export async function until<T>(
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  attempts = 300,
): Promise<T> {
  let value = await read();
  for (let i = 1; i < attempts && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  if (!done(value)) throw new Error(`Never reached the state waited for: ${JSON.stringify(value)}`);
  return value;
}

/** `tasks/get` through `url` until `done` holds for the task (bounded polling). */
export const untilTask = (url: string, taskId: string, done: (task: Record<string, unknown>) => boolean) =>
  until(() => call(url, "tasks/get", { taskId }, taskId), done);

/** Lines of a counting file (none when it does not exist yet). */
export const lines = (file: string) =>
  existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];

/** A server process started by `spawnServer`. */
export interface ServerProcess {
  child: ChildProcess;
  /** Resolves once its stderr says it serves; rejects when it exits first. */
  serving: Promise<void>;
  /** Resolves with its exit code. */
  exited: Promise<number | null>;
  /** Its stderr so far. */
  stderr(): string;
}

/** Runs `node <bin> <args>` (an `mcp-gen serve`); `serving` resolves once stderr matches `ready`. */
export function spawnServer(options: {
  bin: string;
  args: readonly string[];
  cwd: string;
  env?: Record<string, string>;
  ready: RegExp;
}): ServerProcess {
  const child = spawn(process.execPath, [options.bin, ...options.args], {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: "1", ...options.env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const serving = new Promise<void>((resolve, reject) => {
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      if (options.ready.test(stderr)) resolve();
    });
    void exited.then((code) => reject(new Error(`${options.args.join(" ")} exited (${code}): ${stderr}`)));
  });
  serving.catch(() => {});
  return { child, serving, exited, stderr: () => stderr };
}
