import { describeHostError } from "./engine-errors.ts";
import type { EngineHost } from "./engine-host.ts";
import { type EngineInstance, instantiateEngine, quickjsModule } from "./engine-module.ts";
import { EngineRun } from "./engine-run.ts";
import type { HostMessage, WorkerMessage } from "./protocol.ts";

/**
 * The sandbox's engine in the calling thread (the default): QuickJS on its own capped
 * WebAssembly memory, driven directly, so a call out of the program and its answer cost no
 * thread hop. The engine runs only while the host hands it work (the start of a run, a batch of
 * answers) and gives the thread back as soon as the program waits for a call; busy code is
 * stopped by the engine's interrupt handler at the run's deadline.
 */
export class CallerThreadEngine implements EngineHost {
  readonly ready: Promise<void>;
  onMessages: (messages: WorkerMessage[]) => void = () => {};
  onExit: (reason: string) => void = () => {};
  private instance: EngineInstance | undefined;
  private current: { id: number; engine: EngineRun } | undefined;
  private stopped = false;

  /** `memoryBytes`: the most the engine's WebAssembly heap may grow to, for every program it runs. */
  constructor(options: { memoryBytes: number }) {
    this.ready = (async () => {
      const wasmModule = await quickjsModule();
      this.instance = await instantiateEngine({ wasmModule, memoryBytes: options.memoryBytes });
    })();
    this.ready.catch(() => {});
  }

  post(message: HostMessage): void {
    const instance = this.instance;
    if (this.stopped || !instance) return;
    if (message.type === "answers") {
      const current = this.current;
      if (message.run === current?.id) this.guard(message.run, () => current.engine.answer(message.answers));
      return;
    }
    this.current?.engine.dispose();
    const run = message.run;
    this.guard(run, () => {
      const engine = new EngineRun({ ...instance, message }, (out) => {
        this.onMessages(out);
        if (out.at(-1)?.type === "done") queueMicrotask(() => this.finish(run));
      });
      this.current = { id: run, engine };
      engine.start();
    });
  }

  /**
   * Runs engine work; an exception of the host's own (not the program's, which the engine
   * catches) ends the run and this engine. This thread's stack overflowing under the engine's
   * recursion (a RangeError before the engine's own stack limit) is the usual one: the engine's
   * state is then lost half-way, so it is dropped whole and the sandbox starts a fresh one.
   */
  private guard(run: number, work: () => void): void {
    try {
      work();
    } catch (thrown) {
      this.current = undefined;
      this.instance = undefined;
      this.stopped = true;
      this.onMessages([{ type: "done", run, ok: false, hardLimit: true, error: describeHostError(thrown) }]);
    }
  }

  busy(): void {
    // Nothing to keep alive: the engine lives in this thread.
  }

  async terminate(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.onExit("the sandbox was closed during the run");
    this.current?.engine.dispose();
    this.current = undefined;
    this.instance = undefined;
  }

  private finish(run: number): void {
    if (this.current?.id !== run) return;
    this.current.engine.dispose();
    this.current = undefined;
  }
}
