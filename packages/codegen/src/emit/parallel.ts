import { availableParallelism, loadavg } from "node:os";
import { Worker } from "node:worker_threads";
import type { Contract } from "../contract/types.ts";
import { type Diagnostic, McpGenError } from "../diagnostics.ts";
import { emitServer } from "./index.ts";
import type { Target } from "./providers/model.ts";
import type { OutputFile } from "./writer.ts";

/** One server to emit. */
export interface EmitJob {
  contract: Contract;
  contractFile: string;
  outDir: string;
  targets?: readonly Target[];
}

/** What emitting one server gave: its files and warnings, or the diagnostics that stopped it. */
export type EmitOutcome = { files: OutputFile[]; warnings: Diagnostic[] } | { diagnostics: Diagnostic[] };

/** Emits one server in this thread; an `McpGenError` becomes an outcome, anything else throws. */
export function runEmitJob(job: EmitJob): EmitOutcome {
  try {
    return emitServer(job.contract, job);
  } catch (error) {
    if (error instanceof McpGenError) return { diagnostics: error.diagnostics };
    throw error;
  }
}

type WorkerMessage =
  | { index: number; outcome: EmitOutcome }
  | { index: number; error: string }
  | { done: true };

/** Below this many tools in all, starting a worker costs more than it saves. */
export const PARALLEL_MIN_TOOLS = 200;

/**
 * Emits every server, in parallel worker threads when there are several servers, enough tools
 * to repay a worker's start-up and idle cores; outcomes are in job order whatever thread made them.
 */
export async function emitServers(jobs: readonly EmitJob[]): Promise<EmitOutcome[]> {
  const tools = jobs.reduce((n, job) => n + job.contract.tools.length, 0);
  // a worker only pays when a core is idle: on a saturated machine it adds its start-up and wins nothing
  const cores = availableParallelism();
  const idle = Math.round(cores - loadavg()[0]!);
  const threads = Math.min(jobs.length - 1, cores - 1, idle);
  if (threads < 1 || tools < PARALLEL_MIN_TOOLS) return jobs.map(runEmitJob);
  const pool = EmitPool.start(threads);
  try {
    return await pool.run(jobs);
  } finally {
    pool.close();
  }
}

/**
 * Worker threads that emit servers in parallel. Ajv compilation dominates a build's CPU time
 * and each server has its own Ajv instance, so servers are independent and the output is
 * byte-identical to a serial build. The calling thread takes jobs too; jobs are handed out
 * through a shared counter.
 *
 * @example
 * const pool = EmitPool.start(1);
 * try { outcomes = await pool.run(jobs); } finally { pool.close(); }
 */
export class EmitPool {
  private constructor(private readonly workers: Worker[]) {}

  /** Starts `threads` workers (none when worker threads are unavailable). */
  static start(threads: number): EmitPool {
    const workers: Worker[] = [];
    try {
      // workers do not inherit this thread's loader hooks: each registers tsx, then loads the emitters
      const tsx = JSON.stringify(import.meta.resolve("tsx/esm/api"));
      const entry = JSON.stringify(new URL("./parallel-worker.ts", import.meta.url).href);
      const bootstrap = `import(${tsx}).then((tsx) => { tsx.register(); return import(${entry}); });`;
      for (let i = 0; i < threads; i++) {
        const worker = new Worker(bootstrap, { eval: true });
        worker.unref();
        workers.push(worker);
      }
    } catch {
      // no worker threads here: the calling thread does every job
    }
    return new EmitPool(workers);
  }

  /** Jobs done by worker threads (rather than the calling thread) so far. */
  doneByWorkers = 0;

  /**
   * Emits every job; outcomes are in job order. With `callerTakesJobs: false` the calling
   * thread only does what the workers could not (used by the tests to exercise the workers).
   */
  async run(jobs: readonly EmitJob[], options: { callerTakesJobs?: boolean } = {}): Promise<EmitOutcome[]> {
    const outcomes: (EmitOutcome | undefined)[] = new Array(jobs.length);
    const counter = new Int32Array(new SharedArrayBuffer(4));
    const next = () => Atomics.add(counter, 0, 1);
    let failure: string | undefined;
    let filled = 0;
    let live = this.workers.length;
    let wake: () => void = () => {};
    const settled = new Promise<void>((resolve) => {
      wake = resolve;
    });
    const check = () => {
      if (filled === jobs.length || live === 0 || failure !== undefined) wake();
    };
    for (const worker of this.workers) {
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        live--;
        check();
      };
      worker.on("message", (message: WorkerMessage) => {
        if ("done" in message) end();
        else if ("error" in message) failure ??= message.error;
        else {
          outcomes[message.index] = message.outcome;
          filled++;
          this.doneByWorkers++;
        }
        check();
      });
      // a worker that cannot start or dies leaves its jobs undone: this thread does them below
      worker.once("error", end);
      worker.once("exit", end);
      worker.postMessage({ jobs, counter: counter.buffer });
    }
    for (let i = options.callerTakesJobs === false ? jobs.length : next(); i < jobs.length; i = next()) {
      outcomes[i] = runEmitJob(jobs[i]!);
      filled++;
    }
    check();
    await settled;
    if (failure !== undefined) throw new Error(`emitting in a worker thread failed: ${failure}`);
    return outcomes.map((outcome, i) => outcome ?? runEmitJob(jobs[i]!));
  }

  close(): void {
    for (const worker of this.workers) void worker.terminate();
  }
}
