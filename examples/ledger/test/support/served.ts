import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type Connection, connectHttp, connectStdio } from "@mcp-gen/runtime/client";
import { createLedgerClient, type LedgerClient } from "../../../../generated/ledger/client.ts";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const BIN = fileURLToPath(new URL("../../../../packages/codegen/bin/mcp-gen.js", import.meta.url));

/** `mcp-gen serve ledger` running as a child process, with an SDK client connected to it. */
export interface ServedLedger {
  /** The official SDK client (raw `callTool`, for arguments the typed client would refuse to send). */
  client: Connection["client"];
  /** The generated typed client on `client`. */
  ledger: LedgerClient;
  /** The server process id. */
  pid: number;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  /** Resolves once the server process has ended (for HTTP: with its exit code or signal). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Closes the client and ends the server (stdio: the SDK closes stdin; HTTP: SIGTERM). */
  close(): Promise<void>;
}

export interface ServeLedgerOptions {
  /** `LEDGER_DB`: a SQLite file or a `postgres://` URL. */
  database: string;
  transport: "stdio" | "http";
  /** More `mcp-gen serve` flags, e.g. `--mask-errors`. */
  args?: string[];
}

function serverEnv(database: string): Record<string, string> {
  return { ...(process.env as Record<string, string>), LEDGER_DB: database };
}

/**
 * Starts `mcp-gen serve ledger` on `database` as a real child process (the way MCP hosts launch
 * it over stdio, or on a free port on 127.0.0.1 for Streamable HTTP) and connects the SDK client.
 *
 * @example
 * const served = await serveLedger({ database: file, transport: "http" });
 * await served.ledger.transferEth({ to_address: "bob", amount: "1" });
 */
export async function serveLedger(options: ServeLedgerOptions): Promise<ServedLedger> {
  const args = [BIN, "serve", "ledger", ...(options.args ?? [])];
  return options.transport === "stdio"
    ? serveStdio(args, options.database)
    : serveHttp(args, options.database);
}

async function serveStdio(args: string[], database: string): Promise<ServedLedger> {
  let stderr = "";
  const connection = await connectStdio(
    { command: process.execPath, args, cwd: ROOT, env: serverEnv(database) },
    {
      clientInfo: { name: "ledger-stdio-test", version: "1.0.0" },
      onStderr: (text) => {
        stderr += text;
      },
    },
  );
  const { client } = connection;
  const exited = new Promise<{ code: null; signal: null }>((resolve) => {
    client.onclose = () => resolve({ code: null, signal: null });
  });
  return {
    client,
    ledger: createLedgerClient(client),
    pid: connection.pid!,
    stderr: () => stderr,
    exited,
    close: async () => {
      await client.close();
      await exited;
    },
  };
}

async function serveHttp(args: string[], database: string): Promise<ServedLedger> {
  const child = spawn(process.execPath, [...args, "--http", "--port", "0"], {
    cwd: ROOT,
    env: serverEnv(database),
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /serving ledger \(\d+ tools\) on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`mcp-gen serve ledger --http exited (${code ?? signal}) before serving:\n${stderr}`)),
    );
  });
  const { client } = await connectHttp(url, { clientInfo: { name: "ledger-http-test", version: "1.0.0" } });
  return {
    client,
    ledger: createLedgerClient(client),
    pid: child.pid!,
    stderr: () => stderr,
    exited,
    close: async () => {
      await client.close().catch(() => {});
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * Runs `work` for every item with at most `limit` calls in flight (all at once without a limit);
 * stops taking new items once `stop()` is true.
 */
export async function forEachConcurrently<T>(
  items: readonly T[],
  work: (item: T, index: number) => Promise<void>,
  options: { limit?: number; stop?: () => boolean } = {},
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !options.stop?.()) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  const workers = Math.min(options.limit ?? items.length, items.length);
  await Promise.all(Array.from({ length: workers }, worker));
}
