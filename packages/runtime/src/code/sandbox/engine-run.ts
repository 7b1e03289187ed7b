import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { describeHostError, describeThrown, isHostError, MAX_STACK_BYTES } from "./engine-errors.ts";
import { createEngineCalls, type EngineCalls, EngineHeapFull } from "./engine-ffi.ts";
import { type InstalledBridge, installBridge } from "./engine-install.ts";
import type { EngineInstance } from "./engine-module.ts";
import { TO_JSON, wrapProgram } from "./prelude.ts";
import type { Answer, HostMessage, WorkerError, WorkerMessage } from "./protocol.ts";

type RunMessage = Extract<HostMessage, { type: "run" }>;

type LogLevel = "log" | "info" | "warn" | "error";

/** `QTS_PromiseState` of a pending promise. */
const PENDING = 0;

/**
 * One program in a fresh QuickJS runtime and context (its own heap, stack and interrupt
 * deadline), in a worker or the calling thread. Calls leave as `call` messages, gathered while the
 * engine runs and posted together; `answer` settles their promises (inside the engine) and runs
 * its pending jobs until the program's promise settles. The crossings of every call go through
 * `engine-ffi.ts`; the rest (start, errors, the result) through quickjs-emscripten's handles.
 */
export class EngineRun {
  private readonly context: QuickJSContext;
  /** Calls posted and not answered yet. */
  private readonly pending = new Set<number>();
  /** Messages gathered while the engine runs, posted together. */
  private outbox: WorkerMessage[] = [];
  private bridge: InstalledBridge | undefined;
  private calls: EngineCalls | undefined;
  private readonly deadline: number;
  private program: QuickJSHandle | undefined;
  private finished = false;
  /** Set while the last queue is taken at the end: the interrupt must not stop that. */
  private closing = false;
  /** The engine stopped half-way in the host's terms: it is not entered again, not even to free it. */
  private wrecked = false;

  private readonly message: RunMessage;
  /** The API's functions in the prelude's numbering: `[namespace, fn]`. */
  private readonly functions: (readonly [string, string])[];
  private readonly memoryFull: () => boolean;

  /** `setup`: the engine instance (`instantiateEngine`) and the run's message. */
  constructor(
    private readonly setup: EngineInstance & { message: RunMessage },
    private readonly post: (messages: WorkerMessage[]) => void,
  ) {
    const { quickjs, message } = setup;
    this.message = message;
    this.functions = message.api.flatMap(([ns, fns]) => fns.map((fn) => [ns, fn] as const));
    this.memoryFull = setup.memoryFull;
    const { limits } = message;
    const runtime = quickjs.newRuntime();
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(Math.min(limits.stackBytes, MAX_STACK_BYTES));
    this.deadline = Date.now() + limits.timeMs;
    runtime.setInterruptHandler(() => !this.closing && Date.now() > this.deadline);
    this.context = runtime.newContext();
    post([{ type: "started", run: message.run }]);
  }

  /** Installs the API and `console`, then starts the program. */
  start(): void {
    const ctx = this.context;
    try {
      this.bridge = installBridge(ctx, { api: this.message.api, logBytes: this.message.limits.logBytes });
      const { quickjs, memory, Lifetime } = this.setup;
      this.calls = createEngineCalls({ quickjs, context: ctx, memory, Lifetime });
      this.program = ctx.unwrapResult(ctx.evalCode(wrapProgram(this.message.program), "program.js"));
    } catch (error) {
      if (isHostError(error)) this.broken(error);
      else this.fail(error);
      return;
    }
    this.guarded(() => this.pump());
  }

  /** Settles calls' promises inside the program with the host's answers (one batch), then runs on. */
  answer(answers: readonly Answer[]): void {
    this.guarded(() => this.settleAll(answers));
  }

  private settleAll(answers: readonly Answer[]): void {
    const { calls, bridge } = this;
    if (this.finished || !calls || !bridge) return;
    const { resolve, reject } = bridge;
    const ctx = this.context;
    for (const answer of answers) {
      if (!this.pending.delete(answer.call)) continue;
      let thrown: QuickJSHandle | undefined;
      if (answer.ok) {
        try {
          thrown = calls.settle(resolve, answer.call, answer.json);
        } catch (error) {
          if (!(error instanceof EngineHeapFull)) throw error;
          this.end({ kind: "memory", message: "the sandbox's memory is full: a call's answer did not fit" });
          return;
        }
      } else {
        const args = [ctx.newNumber(answer.call), ctx.newString(answer.message), ctx.newString(answer.name)];
        const settled = ctx.callFunction(reject, ctx.undefined, args);
        for (const handle of args) handle.dispose();
        if (settled.error) thrown = settled.error;
        else settled.value.dispose();
      }
      if (thrown) {
        this.fail(this.read(thrown), thrown);
        return;
      }
    }
    this.pump();
  }

  /** Runs engine work; the host's own exception inside it (not the program's) breaks the engine. */
  private guarded(work: () => void): void {
    try {
      work();
    } catch (error) {
      this.broken(error);
    }
  }

  /**
   * The engine failed in the host's terms: most often this thread's stack ran out under the
   * engine's recursion before the engine's own limit (the caller's thread has less stack than a
   * worker). The engine stopped half-way, so nothing more is asked of it: the run ends, and the
   * sandbox replaces the engine (`hardLimit`).
   */
  private broken(thrown: unknown): void {
    this.wrecked = true;
    if (this.finished) return;
    this.finished = true;
    const run = this.message.run;
    this.outbox.push({ type: "done", run, ok: false, error: describeHostError(thrown), hardLimit: true });
    this.flush();
  }

  /** Takes the calls and console lines the engine queued into the outbox. */
  private take(): void {
    if (!this.bridge || !this.calls) return;
    const text = this.calls.text(this.bridge.drain);
    if (text === "") return;
    const run = this.message.run;
    for (const item of JSON.parse(`[${text}]`) as ([0, LogLevel, string] | [number, number, unknown])[]) {
      if (item[0] === 0)
        this.outbox.push({ type: "log", run, level: item[1] as LogLevel, text: item[2] as string });
      else {
        const [namespace, fn] = this.functions[item[1] as number]!;
        this.pending.add(item[0]);
        this.outbox.push({ type: "call", run, call: item[0], namespace, fn, args: item[2] });
      }
    }
  }

  /**
   * Runs pending jobs; ends the run once the program's promise settles (or can no longer settle).
   * Posts what the engine produced meanwhile.
   */
  private pump(): void {
    this.step();
    this.flush();
  }

  private flush(): void {
    if (this.outbox.length === 0) return;
    const messages = this.outbox;
    this.outbox = [];
    this.post(messages);
  }

  private step(): void {
    if (this.finished || !this.program || !this.calls) return;
    const ctx = this.context;
    const jobError = this.calls.runJobs();
    this.take();
    if (jobError) {
      this.fail(this.read(jobError), jobError);
      return;
    }
    if (this.calls.promiseState(this.program) === PENDING) {
      if (this.pending.size === 0 && !ctx.runtime.hasPendingJob())
        this.end({
          kind: "deadlock",
          message:
            "the program waits for a promise that nothing will settle (only the API's functions are asynchronous here: there are no timers or events)",
        });
      return;
    }
    const state = ctx.getPromiseState(this.program);
    if (state.type === "pending") return;
    if (state.type === "rejected") {
      this.fail(this.read(state.error), state.error);
      return;
    }
    const toJson = this.evaluate(TO_JSON);
    const limit = ctx.newNumber(this.message.limits.resultBytes);
    const json = ctx.callFunction(toJson, ctx.undefined, state.value, limit);
    for (const handle of [toJson, limit, state.value]) handle.dispose();
    if (json.error) {
      this.fail(this.read(json.error), json.error);
      return;
    }
    const text = ctx.getString(json.value);
    json.value.dispose();
    this.end(undefined, text);
  }

  /**
   * Whether the heap is (about) full: out of memory, the engine may throw an error it had no room
   * to describe. Counts both the engine's own tally and the WebAssembly heap's growth.
   */
  private nearMemoryLimit(): boolean {
    if (this.memoryFull()) return true;
    try {
      const usage = this.context.runtime.computeMemoryUsage();
      const { malloc_size } = this.context.dump(usage) as { malloc_size: number };
      usage.dispose();
      return malloc_size > this.message.limits.memoryBytes * 0.9;
    } catch {
      return true;
    }
  }

  /** A thrown value as plain data; nothing when the engine cannot even describe it (out of memory). */
  private read(handle: QuickJSHandle): unknown {
    try {
      return this.context.dump(handle);
    } catch {
      return undefined;
    }
  }

  private evaluate(code: string): QuickJSHandle {
    return this.context.unwrapResult(this.context.evalCode(code, "prelude.js"));
  }

  private fail(thrown: unknown, handle?: QuickJSHandle): void {
    handle?.dispose();
    const bare =
      thrown === null || thrown === undefined || (typeof thrown === "object" && !("message" in thrown));
    this.end(describeThrown({ thrown, deadline: this.deadline, memoryFull: bare && this.nearMemoryLimit() }));
  }

  private end(error: WorkerError | undefined, json?: string): void {
    if (this.finished) return;
    // What the program logged (and called) before it ended, also when it ran out of time.
    this.closing = true;
    this.take();
    this.finished = true;
    const run = this.message.run;
    // Calls the program started but never awaited are not run (the run is over): the host only
    // records them.
    this.outbox = this.outbox.map((message) =>
      message.type === "call" ? { ...message, unrun: true } : message,
    );
    if (error) this.outbox.push({ type: "done", run, ok: false, error, hardLimit: error.kind === "memory" });
    else this.outbox.push({ type: "done", run, ok: true, json: json ?? "null" });
    this.flush();
  }

  /** Frees the engine; the worker may dispose the WASM memory's runtime only once nothing refers to it. */
  dispose(): void {
    this.finished = true;
    if (this.wrecked) return;
    try {
      this.calls?.dispose();
      for (const handle of Object.values(this.bridge ?? {})) handle.dispose();
      this.program?.dispose();
      const runtime = this.context.runtime;
      this.context.dispose();
      runtime.dispose();
    } catch {
      // After an out-of-memory error the engine may refuse to free what it holds; the worker is replaced.
    }
  }
}
