import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { EngineHost } from "./engine-host.ts";
import { quickjsModule } from "./engine-module.ts";
import type { HostMessage, WorkerMessage } from "./protocol.ts";

/**
 * The worker script. From the TypeScript sources (this repository's tests) the compiled one in
 * `dist/` runs, since Node 20 cannot start a worker from TypeScript: `npx tsc -b packages/runtime`
 * brings it up to date.
 */
function workerScript(): URL {
  const here = import.meta.url;
  const script = here.endsWith(".ts")
    ? new URL(here.replace("/src/code/sandbox/worker-host.ts", "/dist/code/sandbox/worker.js"))
    : new URL("./worker.js", here);
  if (!existsSync(fileURLToPath(script)))
    throw new Error(
      `the sandbox's worker script ${fileURLToPath(script)} is missing: build the runtime (npx tsc -b packages/runtime)`,
    );
  return script;
}

/** A started worker thread of the sandbox, with one listener the current run sets. */
export class SandboxWorker implements EngineHost {
  readonly ready: Promise<void>;
  private worker: Worker | undefined;
  private exited = false;
  /** Where the worker's messages go (the run in progress). */
  onMessages: (messages: WorkerMessage[]) => void = () => {};
  /** Called once when the worker stops: on its own (crash, out of heap) or closed; `reason` is a sentence. */
  onExit: (reason: string) => void = () => {};

  /**
   * `memoryBytes`: the most memory the engine's WebAssembly heap may grow to, for every program
   * it runs (QuickJS's own limit misses memory grown by reallocation in this build).
   */
  constructor(options: { memoryBytes: number }) {
    this.ready = (async () => {
      const wasmModule = await quickjsModule();
      const worker = new Worker(workerScript(), {
        workerData: { wasmModule, memoryBytes: options.memoryBytes },
        execArgv: [],
        env: {},
        stdout: true,
        stderr: true,
        resourceLimits: { maxOldGenerationSizeMb: 256, stackSizeMb: 4 },
      });
      this.worker = worker;
      // One set of listeners for the worker's whole life: removing the last "message" listener
      // stops Node from waking the host for the worker's messages.
      let started: ((error?: Error) => void) | undefined;
      const starting = new Promise<void>((resolve, reject) => {
        started = (error) => (error ? reject(error) : resolve());
      });
      worker.on("message", (message: WorkerMessage | WorkerMessage[]) => {
        if (!Array.isArray(message)) started?.();
        else this.onMessages(message);
      });
      worker.on("error", (error) => {
        started?.(error);
        this.died(`the sandbox's worker stopped unexpectedly (${error.message})`);
      });
      worker.on("exit", (code) => {
        started?.(new Error(`the sandbox's worker stopped while starting (exit code ${code})`));
        this.died(`the sandbox's worker stopped unexpectedly (exit code ${code})`);
      });
      await starting;
      started = undefined;
      worker.unref();
    })();
    this.ready.catch(() => {});
  }

  post(message: HostMessage): void {
    this.worker?.postMessage(message);
  }

  /** Keeps the process alive while a run is in progress, not while the worker waits. */
  busy(busy: boolean): void {
    if (busy) this.worker?.ref();
    else this.worker?.unref();
  }

  async terminate(): Promise<void> {
    this.died("the sandbox was closed during the run");
    await this.ready.catch(() => {});
    await this.worker?.terminate();
  }

  private died(reason: string): void {
    if (this.exited) return;
    this.exited = true;
    this.onExit(reason);
  }
}
