import { setMaxListeners } from "node:events";
import { type BridgeAnswer, bridgeCall } from "./bridge.ts";
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
  const calls: (ProgramCallRecord & { started: number; done: boolean })[] = [];
  const failed = (error: RunError): RunResult => ({ ok: false, error, logs, calls: records(calls) });
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
  /** The progress the program's tools report through the run's context: one rising count. */
  const progress = { count: 0 };
  // Every call in flight (an MCP client request each) listens to this one signal.
  setMaxListeners(0, inFlight.signal);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: RunResult, replace: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", cancel);
      inFlight.abort();
      worker.onMessage = () => {};
      worker.onExit = () => {};
      worker.busy(false);
      resolve({ result: { ...result, calls: records(calls) }, replace });
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
    // Answers that come in together (Promise.all of fast tools) go to the worker in one message.
    let answers: Answer[] = [];
    const reply = (answer: Answer) => {
      answers.push(answer);
      if (answers.length > 1) return;
      queueMicrotask(() => {
        if (!settled) worker.post({ type: "answers", run, answers });
        answers = [];
      });
    };
    worker.onMessage = (message: WorkerMessage) => {
      if (message.type === "ready" || message.run !== run) return;
      if (message.type === "started") {
        clearTimeout(timer);
        timer = setTimeout(timeUp, limits.timeMs + HOST_GRACE_MS);
        return;
      }
      if (message.type === "log") logs.push({ level: message.level, text: message.text });
      else if (message.type === "done")
        finish(
          message.ok
            ? { ok: true, value: JSON.parse(message.json), logs, calls: [] }
            : failed(worded(message.error, limits)),
          message.ok ? false : message.hardLimit,
        );
      else if (message.unrun) {
        calls.push({
          tool: `${message.namespace}.${message.fn}`,
          arguments: message.args,
          outcome: "cancelled",
          error: "not run: the program ended without awaiting it",
          ms: 0,
          started: 0,
          done: true,
        });
      } else if (calls.length >= limits.maxCalls) {
        finish(
          failed({
            kind: "calls",
            message: `the program made more than ${limits.maxCalls} tool calls, the limit of one run, and was stopped; do the work in fewer calls`,
          }),
          true,
        );
      } else {
        const { args } = message;
        const record = {
          tool: `${message.namespace}.${message.fn}`,
          arguments: args,
          outcome: "cancelled" as const,
          ms: 0,
          started: performance.now(),
          done: false,
        };
        calls.push(record);
        const binding = Object.hasOwn(options.api, message.namespace)
          ? options.api[message.namespace]
          : undefined;
        void bridgeCall({
          namespace: message.namespace,
          fn: message.fn,
          args,
          binding: binding && Object.hasOwn(binding, message.fn) ? binding[message.fn] : undefined,
          permission: options.permission,
          signal: inFlight.signal,
          ...(options.context ? { context: options.context, progress } : {}),
        }).then((bridged: BridgeAnswer) => {
          if (settled) return;
          const answer = fitting(bridged, record.tool, limits);
          Object.assign(record, {
            arguments: answer.args,
            outcome: answer.outcome,
            ms: performance.now() - record.started,
            done: true,
          });
          if (!answer.ok) Object.assign(record, { error: answer.message });
          reply(
            answer.ok
              ? { call: message.call, ok: true, json: answer.json }
              : { call: message.call, ok: false, name: answer.name, message: answer.message },
          );
        });
      }
    };
    worker.busy(true);
    worker.post({ type: "run", run, program, api: namesOf(options.api), limits });
  });
}

/**
 * A result the engine could not even hold is refused as a catchable error before it is sent:
 * over a quarter of the memory limit, as JSON.
 */
function fitting(answer: BridgeAnswer, tool: string, limits: RunLimits): BridgeAnswer {
  const most = Math.floor(limits.memoryBytes / 4);
  if (!answer.ok || answer.json.length <= most) return answer;
  return {
    ok: false,
    outcome: "tool-error",
    args: answer.args,
    name: "ToolError",
    message: `${tool} returned ${answer.json.length} characters of JSON, more than the sandbox takes in one result (${most}); ask for less (a filter, a limit, a page)`,
  };
}

function namesOf(api: ProgramRunOptions["api"]): [string, string[]][] {
  return Object.entries(api).map(([ns, fns]) => [ns, Object.keys(fns)]);
}

/** Call records as the caller sees them: calls still open when the run ended were cancelled. */
function records(calls: (ProgramCallRecord & { started: number; done: boolean })[]): ProgramCallRecord[] {
  return calls.map(({ started, done, ...record }) =>
    done ? record : { ...record, outcome: "cancelled", ms: performance.now() - started },
  );
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
