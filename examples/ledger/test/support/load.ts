import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { Ack } from "./transfer-load.ts";

const SCRIPT = fileURLToPath(new URL("./transfer-load.ts", import.meta.url));
const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

export interface LoadProcess {
  child: ChildProcess;
  /** Every acknowledgement read so far (all of them once `exited` resolves). */
  acks: Ack[];
  /** Resolves with the exit code or signal after stdout is fully read. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/**
 * Starts `transfer-load.ts` as a real child process. `onAck` runs for each acknowledgement
 * as it arrives (the SIGKILL test kills the child from there).
 */
export function startLoad(options: {
  file: string;
  accounts: number;
  seed: number;
  count: number | "forever";
  sharedKey?: string;
  onAck?: (ack: Ack, load: LoadProcess) => void;
}): LoadProcess {
  const args = [SCRIPT, options.file, `${options.accounts}`, `${options.seed}`, `${options.count}`];
  if (options.sharedKey) args.push(options.sharedKey);
  const child = spawn(process.execPath, ["--import", "tsx", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const lines = createInterface({ input: child.stdout! });
  const load: LoadProcess = {
    child,
    acks: [],
    exited: Promise.all([
      new Promise<void>((resolve) => lines.once("close", resolve)),
      new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
        child.once("exit", (code, signal) => resolve([code, signal])),
      ),
    ]).then(([, [code, signal]]) => ({ code, signal, stderr })),
  };
  lines.on("line", (line) => {
    const ack = JSON.parse(line) as Ack;
    load.acks.push(ack);
    options.onAck?.(ack, load);
  });
  return load;
}
