import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from "quickjs-emscripten-core";
import { describeHostError, describeThrown, isHostError, MAX_STACK_BYTES } from "./engine-errors.ts";
import { INSTALL, TO_JSON, wrapProgram } from "./prelude.ts";
import type { Answer, HostMessage, WorkerError, WorkerMessage } from "./protocol.ts";

type RunMessage = Extract<HostMessage, { type: "run" }>;

type LogLevel = "log" | "info" | "warn" | "error";

/**
 * One program in a fresh QuickJS runtime and context (its own heap, stack and interrupt
 * deadline), inside the worker. Calls leave as `call` messages, gathered while the engine runs
 * and posted together; `answer` settles their promises (inside the engine) and runs its pending
 * jobs until the program's promise settles.
 */
export class EngineRun {
  private readonly context: QuickJSContext;
  /** Calls posted and not answered yet. */
  private readonly pending = new Set<number>();
  /** Messages gathered while the engine runs, posted together. */
  private outbox: WorkerMessage[] = [];
  private settle: QuickJSHandle | undefined;
  private drain: QuickJSHandle | undefined;
  private readonly deadline: number;
  private program: QuickJSHandle | undefined;
  private finished = false;
  /** Set while the last queue is taken at the end: the interrupt must not stop that. */
  private closing = false;
  /** The engine stopped half-way in the host's terms: it is not entered again, not even to free it. */
  private wrecked = false;

  private readonly message: RunMessage;
  private readonly memoryFull: () => boolean;

  constructor(
    setup: { quickjs: QuickJSWASMModule; message: RunMessage; memoryFull: () => boolean },
    private readonly post: (messages: WorkerMessage[]) => void,
  ) {
    const { quickjs, message } = setup;
    this.message = message;
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
      const install = this.evaluate(INSTALL);
      const names = ctx.newArray();
      this.message.api.forEach(([ns, fns], i) => {
        const entry = ctx.newArray();
        ctx.setProp(entry, 0, ctx.newString(ns));
        const list = ctx.newArray();
        for (const [j, fn] of fns.entries()) ctx.setProp(list, j, ctx.newString(fn));
        ctx.setProp(entry, 1, list);
        ctx.setProp(names, i, entry);
        entry.dispose();
        list.dispose();
      });
      const logLimit = ctx.newNumber(this.message.limits.logBytes);
      const installed = ctx.callFunction(install, ctx.undefined, names, logLimit);
      for (const handle of [install, names, logLimit]) handle.dispose();
      const bridge = ctx.unwrapResult(installed);
      this.settle = ctx.getProp(bridge, "settle");
      this.drain = ctx.getProp(bridge, "drain");
      bridge.dispose();
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
    if (this.finished || !this.settle) return;
    const parts: string[] = [];
    for (const answer of answers) {
      if (!this.pending.delete(answer.call)) continue;
      parts.push(
        answer.ok
          ? `[${answer.call},1,${answer.json}]`
          : JSON.stringify([answer.call, 0, answer.message, answer.name]),
      );
    }
    if (parts.length > 0) {
      const ctx = this.context;
      const batch = ctx.newString(`[${parts.join(",")}]`);
      const settled = ctx.callFunction(this.settle, ctx.undefined, batch);
      batch.dispose();
      if (settled.error) {
        this.fail(this.read(settled.error), settled.error);
        return;
      }
      settled.value.dispose();
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
    if (!this.drain) return;
    const ctx = this.context;
    const drained = ctx.callFunction(this.drain, ctx.undefined);
    if (drained.error) {
      drained.error.dispose();
      return;
    }
    const text = ctx.getString(drained.value);
    drained.value.dispose();
    if (text === "") return;
    const run = this.message.run;
    for (const item of JSON.parse(text) as (
      | ["log", LogLevel, string]
      | ["call", number, string, string, unknown]
    )[]) {
      if (item[0] === "log") this.outbox.push({ type: "log", run, level: item[1], text: item[2] });
      else {
        this.pending.add(item[1]);
        this.outbox.push({
          type: "call",
          run,
          call: item[1],
          namespace: item[2],
          fn: item[3],
          args: item[4],
        });
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
    if (this.finished || !this.program) return;
    const ctx = this.context;
    const jobs = ctx.runtime.executePendingJobs();
    this.take();
    if (jobs.error) {
      this.fail(this.read(jobs.error), jobs.error);
      return;
    }
    const state = ctx.getPromiseState(this.program);
    if (state.type === "pending") {
      if (this.pending.size === 0 && !ctx.runtime.hasPendingJob())
        this.end({
          kind: "deadlock",
          message:
            "the program waits for a promise that nothing will settle (only the API's functions are asynchronous here: there are no timers or events)",
        });
      return;
    }
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
      this.settle?.dispose();
      this.drain?.dispose();
      this.program?.dispose();
      const runtime = this.context.runtime;
      this.context.dispose();
      runtime.dispose();
    } catch {
      // After an out-of-memory error the engine may refuse to free what it holds; the worker is replaced.
    }
  }
}
