import { CallerThreadEngine } from "./caller-thread.ts";
import type { EngineHost } from "./engine-host.ts";
import { runOn } from "./run-on-worker.ts";
import type { ProgramRunOptions, RunLimits, RunResult } from "./types.ts";
import { SandboxWorker } from "./worker-host.ts";

/** The limits of a run unless the sandbox or the run sets others. */
export const DEFAULT_LIMITS: Readonly<RunLimits> = {
  timeMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxCalls: 1_000,
  resultBytes: 1024 * 1024,
  logBytes: 64 * 1024,
};

/** Options of `createSandbox()`. */
export interface SandboxOptions {
  /** Limits of every run (a run's own `limits` override them). */
  limits?: Partial<RunLimits>;
  /**
   * Where the engine runs. `"caller"` (default): in this thread — a call out of the program costs
   * no thread hop, but a busy program holds the thread until it waits for a call or hits its time
   * limit. `"worker"`: in a worker thread of its own — busy programs never hold this thread's
   * event loop, at a message round trip per batch of calls.
   */
  thread?: "caller" | "worker";
}

/** A warm sandbox: one QuickJS engine ready (in this thread or a worker's); runs take turns on it. */
export interface Sandbox {
  /**
   * Runs a program — JavaScript, the body of an async function — whose only capabilities are
   * `options.api` and `console`. Never throws for anything the program does.
   */
  run(program: string, options: ProgramRunOptions): Promise<RunResult>;
  /** Stops the worker; later runs start a new one. */
  close(): Promise<void>;
}

/**
 * Starts a sandbox (QuickJS — and the worker, if any — load now, so the first run does not wait for them).
 *
 * @example
 * const sandbox = createSandbox();
 * const result = await sandbox.run('const b = await ledger.get_balance({ address: "alice" }); return b;', {
 *   api: { ledger: bindManifest(createManifest({ LedgerTools: tools })) },
 *   permission: async ({ namespace, fn }) => confirm(`${namespace}.${fn}?`),
 * });
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  let worker: EngineHost | undefined;
  let turn: Promise<unknown> = Promise.resolve();
  const memoryBytes = options.limits?.memoryBytes ?? DEFAULT_LIMITS.memoryBytes;
  const start = (): EngineHost =>
    options.thread === "worker"
      ? new SandboxWorker({ memoryBytes })
      : new CallerThreadEngine({ memoryBytes });
  worker = start();
  return {
    run(program, runOptions) {
      const limits = { ...DEFAULT_LIMITS, ...options.limits, ...runOptions.limits };
      const next = turn.then(async () => {
        worker ??= start();
        const current = worker;
        const outcome = await runOn({ worker: current, program, options: runOptions, limits });
        if (outcome.replace) {
          if (worker === current) worker = start();
          void current.terminate();
        }
        return outcome.result;
      });
      turn = next.catch(() => {});
      return next;
    },
    async close() {
      const closing = worker;
      worker = undefined;
      await closing?.terminate();
    },
  };
}

let shared: Sandbox | undefined;

/**
 * Runs a program on a sandbox shared by this process (started on first use; its idle worker
 * does not keep the process alive). See `Sandbox.run`.
 *
 * @example
 * const result = await run("return await ledger.list_accounts({});", { api });
 * if (!result.ok) console.error(result.error.message);
 */
export function run(program: string, options: ProgramRunOptions): Promise<RunResult> {
  shared ??= createSandbox();
  return shared.run(program, options);
}
