import { randomUUID } from "node:crypto";
import { ProtocolErrorCode, type Result } from "@modelcontextprotocol/server";
import { ToolError } from "../tool-error.ts";
import {
  type CallEnvironment,
  callTool,
  checkArguments,
  Invocation,
  type Target,
  toolTarget,
} from "./call-tool.ts";
import type { ManifestTool } from "./manifest.ts";
import type { ServerOptions } from "./options.ts";
import { elicitationProblem, protocolError } from "./protocol.ts";

/** A request a tool sends the client through `input_required` (MCP 2026-07-28 multi-round requests). */
export interface InputRequest {
  method: "elicitation/create" | "sampling/createMessage" | "roots/list";
  params: Record<string, unknown>;
}

/**
 * Calls from 2026-07-28 clients that wait for the user's input. In that revision a server
 * cannot send the client a request in the middle of a call: it answers `input_required`
 * (the questions, and an opaque `requestState`) and the client calls again with the answers.
 * mcp-gen keeps the execution of the tool alive in between (*parked*), so `await ctx.elicit()`
 * simply resumes with the answer: the tool runs once, its side effects happen once.
 *
 * The `requestState` is a random id (122 bits) naming the parked call in this process, bound
 * to the tool's name and arguments. A call parked longer than `inputTimeoutMs` is aborted.
 */
/**
 * Turns a running call into a task (`ctx.becomeTask()` of a `@task deferred` tool): the
 * `CreateTaskResult` the request answers with, and where the call asks its client from then on.
 */
export type ToTask = (invocation: Invocation<unknown>) => Promise<{
  result: Result;
  ask(request: InputRequest, key?: string): Promise<unknown>;
}>;

export interface ParkedCalls {
  /**
   * Serves `tools/call` from a 2026-07-28 client: a new call, or the retry of a parked one.
   * With `toTask`, the call becomes a task when the tool calls `ctx.becomeTask()`.
   */
  serve(tool: ManifestTool, args: unknown, env: CallEnvironment, toTask?: ToTask): Promise<Result>;
  /**
   * Runs any other target (a prompt, a resource) for a 2026-07-28 client: a new run with checked
   * `args` when the request carries no `requestState`, else the retry of a parked one, which must
   * come with the same raw arguments (`argsKey`, compared as canonical JSON).
   */
  run<R>(target: Target<R>, args: unknown, argsKey: unknown, env: CallEnvironment): Promise<R | Result>;
  /**
   * Asks the client (from a tool's context) under `key` (default: numbered per call); resolves
   * with the client's answer.
   */
  ask(invocation: Invocation<unknown>, request: InputRequest, key?: string): Promise<unknown>;
  /**
   * `ctx.becomeTask()`: the request the invocation serves answers with a new task, and the
   * invocation goes on as that task; resolves once it is one. At once when it cannot become one.
   */
  becomeTask(invocation: Invocation<unknown>): Promise<void>;
  /** Calls waiting for their client's answer now. */
  readonly size: number;
}

interface Question {
  request: InputRequest;
  resolve(answer: unknown): void;
  reject(error: Error): void;
}

interface Waiting {
  /** Questions asked and not yet answered, by the key the client answers under. */
  questions: Map<string, Question>;
  asked: number;
  /**
   * Answers that came with the call's first request (no `requestState`): a client that already
   * knows the questions may send them at once; a question under one of these keys is answered
   * without a round.
   */
  early: Record<string, unknown>;
  /** Wakes the request waiting for this invocation: a question was asked, or it becomes a task. */
  wake?: (why: "asked" | "task") => void;
  /** How the request now serving the invocation turns it into a task, when it may. */
  toTask?: ToTask;
  /** The tool called `ctx.becomeTask()`: resolves it once the task exists. */
  becoming?: () => void;
  /** Where the invocation asks once it is a task. */
  taskAsk?: (request: InputRequest, key?: string) => Promise<unknown>;
}

interface Parked {
  invocation: Invocation<unknown>;
  /** The target's key (`tool:name` …). */
  target: string;
  args: string;
  timer: NodeJS.Timeout;
}

export function parkedCalls(options: Pick<ServerOptions, "inputTimeoutMs" | "maxWaitingCalls">): ParkedCalls {
  const ttl = options.inputTimeoutMs ?? 10 * 60_000;
  const max = options.maxWaitingCalls ?? 1000;
  const waiting = new WeakMap<Invocation<unknown>, Waiting>();
  const parked = new Map<string, Parked>();

  const stateOf = (invocation: Invocation<unknown>): Waiting => {
    let state = waiting.get(invocation);
    if (!state) {
      state = { questions: new Map(), asked: 0, early: {} };
      waiting.set(invocation, state);
    }
    return state;
  };

  /** Waits for the invocation's outcome, or answers `input_required` once it asks something. */
  const drive = async <R>(invocation: Invocation<R>, toTask?: ToTask): Promise<R | Result> => {
    const state = stateOf(invocation as Invocation<unknown>);
    state.toTask = toTask;
    const woken = new Promise<"asked" | "task">((resolve) => {
      state.wake = resolve;
      // Questions asked before `becomeTask()` go out first, in a round of their own.
      if (state.questions.size > 0) resolve("asked");
      else if (state.becoming) resolve("task");
    });
    const first = await Promise.race([invocation.outcome, woken]);
    state.wake = undefined;
    state.toTask = undefined;
    if (first !== "asked" && first !== "task") return invocation.settle(first);
    if (first === "task" && !toTask) {
      // A retry that may not become a task (its client dropped the extension): the call goes on.
      const becoming = state.becoming;
      state.becoming = undefined;
      becoming?.();
      return drive(invocation);
    }
    invocation.detach();
    if (first === "task" && toTask) {
      const becoming = state.becoming;
      state.becoming = undefined;
      const task = await toTask(invocation as Invocation<unknown>);
      state.taskAsk = task.ask;
      becoming?.();
      return task.result;
    }
    const id = randomUUID();
    const timer = setTimeout(() => {
      parked.delete(id);
      invocation.controller.abort(
        new ToolError(`${invocation.target.label} got no answer from the client within ${ttl} ms.`),
      );
    }, ttl);
    timer.unref();
    parked.set(id, {
      invocation: invocation as Invocation<unknown>,
      target: invocation.target.key,
      args: argsKeyOf(invocation),
      timer,
    });
    void invocation.outcome.then(() => {
      clearTimeout(timer);
      parked.delete(id);
    });
    return {
      resultType: "input_required",
      inputRequests: Object.fromEntries([...state.questions].map(([key, q]) => [key, q.request])),
      requestState: id,
    } as Result;
  };

  const argsKeys = new WeakMap<Invocation<any>, string>();
  const argsKeyOf = (invocation: Invocation<any>) => argsKeys.get(invocation) ?? "";

  /** A new run: the invocation starts, bound to its arguments, and answers `input_required` when it asks. */
  const start = <R>(
    target: Target<R>,
    args: unknown,
    argsKey: unknown,
    env: CallEnvironment,
    toTask?: ToTask,
  ) => {
    const invocation = new Invocation(target, args, env);
    argsKeys.set(invocation, canonicalJson(argsKey));
    stateOf(invocation as Invocation<unknown>).early = { ...env.request?.mcpReq.inputResponses };
    return drive(invocation, toTask);
  };

  /** The retry of a parked run: it resumes with the client's answers. */
  const resume = <R>(
    state: unknown,
    target: Target<R>,
    argsKey: unknown,
    env: CallEnvironment,
    toTask?: ToTask,
  ) => {
    const entry = typeof state === "string" ? parked.get(state) : undefined;
    if (!entry || entry.target !== target.key || entry.args !== canonicalJson(argsKey)) {
      throw protocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid or expired requestState: ${target.key.startsWith("tool:") ? "call the tool" : "send the request"} again without it`,
        { reason: "invalid_request_state" },
      );
    }
    parked.delete(state as string);
    clearTimeout(entry.timer);
    const invocation = entry.invocation as Invocation<R>;
    invocation.relink(env);
    const answers = env.request?.mcpReq.inputResponses ?? {};
    const questions = stateOf(entry.invocation).questions;
    for (const [key, question] of [...questions]) {
      if (!Object.hasOwn(answers, key)) continue;
      questions.delete(key);
      const problem = answerProblem(question.request, answers[key]);
      if (problem) question.reject(new ToolError(`The client's answer to "${key}" is invalid: ${problem}`));
      else question.resolve(answers[key]);
    }
    return drive(invocation, toTask);
  };

  return {
    get size() {
      return parked.size;
    },

    async serve(tool, rawArgs, env, toTask) {
      const state = env.request?.mcpReq.requestState<unknown>();
      const target = toolTarget(tool);
      if (state !== undefined) return resume(state, target, rawArgs ?? {}, env, toTask);
      if (!tool.usesContext) return callTool(tool, rawArgs, env);
      const checked = checkArguments(tool, rawArgs, env);
      if (!checked.ok) return checked.result;
      return start(target, checked.args, checked.args, env, toTask);
    },

    async run(target, args, argsKey, env) {
      const state = env.request?.mcpReq.requestState<unknown>();
      return state === undefined ? start(target, args, argsKey, env) : resume(state, target, argsKey, env);
    },

    becomeTask(invocation) {
      const state = stateOf(invocation);
      if (state.taskAsk || !state.toTask) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const before = state.becoming;
        state.becoming = () => {
          before?.();
          resolve();
        };
        queueMicrotask(() => state.wake?.("task"));
      });
    },

    ask(invocation, request, chosen) {
      const state = stateOf(invocation);
      if (state.taskAsk) return state.taskAsk(request, chosen);
      const key = chosen ?? `${PREFIX[request.method]}-${++state.asked}`;
      if (chosen !== undefined && state.questions.has(key)) {
        return Promise.reject(
          new ToolError(
            `The tool asks twice under the key "${key}" at once; give each question its own key.`,
          ),
        );
      }
      if (Object.hasOwn(state.early, key)) {
        const answer = state.early[key];
        delete state.early[key];
        const problem = answerProblem(request, answer);
        return problem
          ? Promise.reject(new ToolError(`The client's answer to "${key}" is invalid: ${problem}`))
          : Promise.resolve(answer);
      }
      if (parked.size >= max) {
        return Promise.reject(
          new ToolError(`The server has ${max} calls waiting for their clients' input; try again later.`),
        );
      }
      return new Promise((resolve, reject) => {
        state.questions.set(key, { request, resolve, reject });
        // Questions asked together (Promise.all) go out in one round.
        queueMicrotask(() => state.wake?.("asked"));
      });
    },
  };
}

export const PREFIX = {
  "elicitation/create": "elicit",
  "sampling/createMessage": "sample",
  "roots/list": "roots",
} as const;

/** Why a client's answer cannot be handed to the tool, if it cannot. */
export function answerProblem(request: InputRequest, answer: unknown): string | undefined {
  if (answer === null || typeof answer !== "object" || Array.isArray(answer)) return "expected an object";
  const value = answer as Record<string, unknown>;
  if (request.method === "roots/list") {
    return Array.isArray(value.roots) &&
      value.roots.every((r) => typeof (r as { uri?: unknown })?.uri === "string")
      ? undefined
      : "expected a list of roots (roots: [{ uri }])";
  }
  if (request.method === "sampling/createMessage") {
    return typeof value.role === "string" && value.content !== undefined
      ? undefined
      : "expected a sampling result (role, content)";
  }
  if (value.action !== "accept" && value.action !== "decline" && value.action !== "cancel") {
    return 'expected action "accept", "decline" or "cancel"';
  }
  if (value.action !== "accept") return undefined;
  return elicitationProblem(request.params.requestedSchema as never, value.content ?? {});
}

/** JSON with object keys sorted: equal arguments give equal strings. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
