import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import type { Readable } from "node:stream";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import type { Observed } from "./failure.ts";

const STDERR_LINES = 12;

/**
 * The stdio transport of `pull`: starts the server command and speaks newline-delimited
 * JSON-RPC on its stdin/stdout, recording for the diagnostics what the SDK's own
 * `StdioClientTransport` does not pass on:
 * - lines on stdout that are not JSON-RPC (the SDK's `ReadBuffer` skips them silently),
 * - the last lines of stderr,
 * - that the server exited (reported as the connection closing, once all its output is read).
 *
 * It has `stderr` and `pid`, so the v2 `Client` treats it as a stdio transport: in `'auto'` mode it
 * sends the `server/discover` probe on this very process (no sibling process is spawned), a
 * probe nobody answers falls back to `initialize` on the same pipe, and a server that exits on
 * the probe fails the connect (`listServerTools` then retries once in `'legacy'` mode).
 */
export class PullStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcessWithoutNullStreams | undefined;
  /** `close()` was called: the end of the connection is ours, not the server's. */
  private closed = false;
  private ended = false;

  constructor(
    private readonly server: { command: string; args: string[]; cwd?: string },
    private readonly observed: Observed,
  ) {}

  /** The server's stderr (read by this transport); `null` before `start()`. */
  get stderr(): Readable | null {
    return this.child?.stderr ?? null;
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Spawns the server; rejects with the spawn error (`ENOENT`, `EACCES`) when it cannot start. */
  start(): Promise<void> {
    if (this.child) throw new Error("PullStdioTransport already started");
    const child = spawn(this.server.command, this.server.args, {
      env: process.env,
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
      ...(this.server.cwd ? { cwd: this.server.cwd } : {}),
    });
    this.child = child;
    eachLine(child.stdout, (line) => this.receive(line));
    eachLine(child.stderr, (line) => {
      this.observed.stderr.push(line);
      this.observed.stderr.splice(0, Math.max(0, this.observed.stderr.length - STDERR_LINES));
    });
    // A write to a server that is exiting fails with EPIPE; its exit closes the connection next.
    child.stdin.on("error", (error) => this.onerror?.(error));
    // "close" comes after the exit and after stdout and stderr ended: everything the server
    // printed has been recorded by then.
    child.on("close", () => {
      if (!this.closed) this.observed.exited = true;
      this.finish();
    });
    return new Promise((resolve, reject) => {
      child.once("spawn", () => {
        child.off("error", reject);
        child.on("error", (error) => this.onerror?.(error));
        resolve();
      });
      child.once("error", reject);
    });
  }

  /**
   * Writes one message as a line. A failed write is not reported to the caller: it only happens
   * when the server is going away, and its exit then closes the connection, which fails the
   * pending requests (a request to a server that closed its stdin but lives on times out).
   */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed || this.ended) return Promise.reject(new Error("Not connected"));
    return new Promise((resolve) => {
      stdin.write(`${JSON.stringify(message)}\n`, () => resolve());
    });
  }

  /** Ends the server's stdin and stops it (SIGTERM, then SIGKILL if it does not exit). */
  async close(): Promise<void> {
    const child = this.child;
    const running = child?.pid !== undefined && child.exitCode === null && child.signalCode === null;
    this.closed = true;
    if (child && running) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.stdin.end();
      child.kill("SIGTERM");
      const kill = setTimeout(() => child.kill("SIGKILL"), 2000);
      await exited;
      clearTimeout(kill);
    }
    this.finish();
  }

  private receive(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch (error) {
      this.observed.badOutput.push((error as Error).message);
      return;
    }
    if (
      message === null ||
      typeof message !== "object" ||
      (message as { jsonrpc?: unknown }).jsonrpc !== "2.0"
    ) {
      this.observed.badOutput.push(`${JSON.stringify(line.slice(0, 40))} is not a JSON-RPC message`);
      return;
    }
    this.onmessage?.(message as JSONRPCMessage);
  }

  /** Reports the end of the connection, once. */
  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.onclose?.();
  }
}

/** Calls `fn` for every non-blank line of a stream, the last one included when it has no newline. */
function eachLine(stream: Readable, fn: (line: string) => void): void {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line.trim() !== "") fn(line.replace(/\r$/, ""));
  });
  stream.on("end", () => {
    if (pending.trim() !== "") fn(pending.replace(/\r$/, ""));
    pending = "";
  });
}
