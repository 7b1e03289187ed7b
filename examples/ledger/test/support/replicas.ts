import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const BIN = fileURLToPath(new URL("../../../../packages/codegen/bin/mcp-gen.js", import.meta.url));

/** One `mcp-gen serve ledger --http` replica as a child process. */
export interface Replica {
  /** Its session route, e.g. `replica-1` (session ids start with `replica-1.`). */
  route: string;
  port: number;
  pid: number;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * Starts `mcp-gen serve ledger --http --session-route <route> --allowed-host <balancer host>
 * --trust-proxy 127.0.0.1` on `port` of 127.0.0.1 (default: a free one), on `database`, and
 * waits until it serves. With a `port`, requests straight to the replica are accepted too.
 */
export async function startReplica(options: {
  database: string;
  route: string;
  balancerHost: string;
  port?: number;
  args?: string[];
  /** More environment for the process (e.g. `MCP_GEN_STATE_LEASE_MS`). */
  env?: Record<string, string>;
}): Promise<Replica> {
  const args = [
    BIN,
    "serve",
    "ledger",
    "--http",
    "--port",
    String(options.port ?? 0),
    "--session-route",
    options.route,
    "--allowed-host",
    options.balancerHost,
    ...(options.port ? [`127.0.0.1:${options.port}`] : []),
    "--trust-proxy",
    "127.0.0.1",
    ...(options.args ?? []),
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), ...options.env, LEDGER_DB: options.database },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  let stderr = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /serving ledger \(\d+ tools\) on http:\/\/127\.0\.0\.1:(\d+)\//.exec(stderr);
      if (match) resolve(Number(match[1]));
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`replica ${options.route} exited (${code ?? signal}) before serving:\n${stderr}`)),
    );
  });
  return {
    route: options.route,
    port,
    pid: child.pid!,
    stderr: () => stderr,
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}
