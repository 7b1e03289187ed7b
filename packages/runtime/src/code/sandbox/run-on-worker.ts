import { setMaxListeners } from "node:events";
import { type BridgeAnswer, bridgeCall } from "./bridge.ts";
import { CallRecords } from "./call-records.ts";
import { MAX_STACK_BYTES } from "./engine-errors.ts";
import type { EngineHost } from "./engine-host.ts";
import type { Answer, WorkerError, WorkerMessage } from "./protocol.ts";
import type {
  LogEntry,
  ProgramCallRecord,
  ProgramRunOptions,
  RunError,
  RunLimits,
  RunResult,
  ToolCallOptions,
} from "./types.ts";

/**
 * One run on the sandbox's worker, host side: posts the program, answers its calls through the
 * bridge, keeps its logs and calls record, and enforces what the engine cannot see (wall time
 * while calls are out, the number of calls, cancellation, the worker dying).
 */

let runs = 0;

/** How long after the time limit the host terminates a worker that has not ended the run itself. */
const HOST_GRACE_MS = 250;

/** One run on a worker; `replace` when the worker must not run anything else. */
export async function runOn(setup: {
  worker: EngineHost;
  program: string;
  options: ProgramRunOptions;
  limits: RunLimits;
}): Promise<{ result: RunResult; replace: boolean }> {
  const { worker, program, options, limits } = setup;
  const logs: LogEntry[] = [];
  const calls = new CallRecords();
  const failed = (error: RunError): RunResult => withCalls({ ok: false, error, logs }, calls);
  try {
    await worker.ready;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      result: failed({ kind: "sandbox", message: `the sandbox could not start: ${reason}` }),
      replace: true,
    };
  }
  const run = ++runs;
  const inFlight = new AbortController();
  // Every call in flight (an MCP client request each) listens to this one signal.
  setMaxListeners(0, inFlight.signal);
  // What every call's tool gets: the run's signal, and with a context the progress the program's
  // tools report through it (one rising count).
  const toolOptions: ToolCallOptions = options.context
    ? { signal: inFlight.signal, context: options.context, progress: { count: 0 } }
    : { signal: inFlight.signal };
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: RunResult, replace: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", cancel);
      inFlight.abort();
      worker.onMessages = () => {};
      worker.onExit = () => {};
      worker.busy(false);
      calls.end();
      resolve({ result, replace });
    };
    const cancel = () => finish(failed({ kind: "cancelled", message: "the run was cancelled" }), true);
    // The engine stops busy code itself at the limit, with its line and console output; the host
    // stops the rest (calls that do not answer, an engine that does not yield) a little later.
    // Armed when the run is posted, and again when the engine says it started (its deadline counts
    // from then): a slow start on a loaded machine must not let the host cut off an engine that
    // would have stopped the program itself, with its line and console output.
    const timeUp = () =>
      finish(
        failed(
          worded({ kind: "time", message: "the program ran past its time limit and was stopped" }, limits),
        ),
        true,
      );
    let timer = setTimeout(timeUp, limits.timeMs + HOST_GRACE_MS);
    if (options.signal?.aborted) return cancel();
    options.signal?.addEventListener("abort", cancel, { once: true });
    worker.onExit = (reason) => finish(failed({ kind: "sandbox", message: reason }), true);
    // Answers go to the engine together: at once when every call out has its answer (a program
    // waiting for one call does not wait a microtask more), else at the end of this microtask
    // turn (`Promise.all` of fast tools: one entry into the engine for all of them). Answers made
    // while a batch of the engine's messages is read wait for a microtask: the engine posted that
    // batch, and entering it again from there would nest every synchronous call in the last.
    let answers: Answer[] = [];
    // A result the engine could not even hold is refused before it is sent: over a quarter of
    // the memory limit, as JSON.
    const most = Math.floor(limits.memoryBytes / 4);
    let out = 0;
    let reading = false;
    let scheduled = false;
    const send = () => {
      scheduled = false;
      if (settled || answers.length === 0) return;
      const batch = answers;
      answers = [];
      out -= batch.length;
      worker.post({ type: "answers", run, answers: batch });
    };
    const reply = (index: number, call: number, bridged: BridgeAnswer) => {
      if (settled) return;
      const answer =
        bridged.ok && bridged.json.length > most
          ? tooLarge({ tool: calls.toolOf(index), chars: bridged.json.length, most })
          : bridged;
      if (answer.ok) {
        calls.close(index, "ok");
        answers.push({ call, ok: true, json: answer.json });
      } else {
        calls.close(index, answer.outcome, answer.message);
        answers.push({ call, ok: false, name: answer.name, message: answer.message });
      }
      if (reading) return;
      if (answers.length === out) send();
      else if (!scheduled) {
        scheduled = true;
        queueMicrotask(send);
      }
    };
    const onCall = (message: Extract<WorkerMessage, { type: "call" }>) => {
      const { namespace, fn, args } = message;
      if (message.unrun) return calls.unrun(namespace, fn, args);
      if (calls.length >= limits.maxCalls)
        return finish(
          failed({
            kind: "calls",
            message: `the program made more than ${limits.maxCalls} tool calls, the limit of one run, and was stopped; do the work in fewer calls`,
          }),
          true,
        );
      const index = calls.open(namespace, fn, args);
      out++;
      const functions = Object.hasOwn(options.api, namespace) ? options.api[namespace] : undefined;
      const bridged = bridgeCall({
        namespace,
        fn,
        args,
        binding: functions && Object.hasOwn(functions, fn) ? functions[fn] : undefined,
        permission: options.permission,
        options: toolOptions,
      });
      const id = message.call;
      if (bridged instanceof Promise) void bridged.then((answer) => reply(index, id, answer));
      else reply(index, id, bridged);
    };
    const onMessage = (message: WorkerMessage) => {
      if (message.type === "ready" || message.run !== run) return;
      if (message.type === "call") onCall(message);
      else if (message.type === "log") logs.push({ level: message.level, text: message.text });
      else if (message.type === "started") {
        clearTimeout(timer);
        timer = setTimeout(timeUp, limits.timeMs + HOST_GRACE_MS);
      } else
        finish(
          message.ok
            ? withCalls({ ok: true, value: JSON.parse(message.json), logs }, calls)
            : failed(worded(message.error, limits)),
          message.ok ? false : message.hardLimit,
        );
    };
    worker.onMessages = (messages) => {
      reading = true;
      try {
        for (const message of messages) {
          if (settled) return;
          onMessage(message);
        }
      } finally {
        reading = false;
      }
      // answered while reading (refusals, synchronous tools): the next microtask, so that the
      // engine is not entered again from inside its own post
      if (answers.length > 0 && !scheduled) {
        scheduled = true;
        queueMicrotask(send);
      }
    };
    worker.busy(true);
    worker.post({ type: "run", run, program, api: namesOf(options.api), limits });
  });
}

/** The result with its `calls`, made from the records when first read. */
function withCalls<T extends Omit<RunResult, "calls">>(
  result: T,
  calls: CallRecords,
): T & { calls: ProgramCallRecord[] } {
  let list: ProgramCallRecord[] | undefined;
  return Object.defineProperty(result, "calls", {
    get: () => {
      list ??= calls.list();
      return list;
    },
    // a caller may still replace it, as it could the plain property it was
    set: (value: ProgramCallRecord[]) => {
      list = value;
    },
    enumerable: true,
    configurable: true,
  }) as T & { calls: ProgramCallRecord[] };
}

/** The catchable error for a result over what the sandbox takes in one answer. */
function tooLarge(setup: { tool: string; chars: number; most: number }): BridgeAnswer {
  return {
    ok: false,
    outcome: "tool-error",
    name: "ToolError",
    message: `${setup.tool} returned ${setup.chars} characters of JSON, more than the sandbox takes in one result (${setup.most}); ask for less (a filter, a limit, a page)`,
  };
}

function namesOf(api: ProgramRunOptions["api"]): [string, string[]][] {
  return Object.entries(api).map(([ns, fns]) => [ns, Object.keys(fns)]);
}

/** The worker's error with the limit it hit named with its value. */
function worded(error: WorkerError, limits: RunLimits): RunError {
  const figure: Partial<Record<WorkerError["kind"], string>> = {
    time: `${limits.timeMs} ms`,
    memory: `${limits.memoryBytes / 1024 / 1024} MiB`,
    stack: `${Math.min(limits.stackBytes, MAX_STACK_BYTES) / 1024} KiB`,
  };
  const limit = figure[error.kind];
  return limit ? { ...error, message: `${error.message} (limit: ${limit})` } : error;
}
