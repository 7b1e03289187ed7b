import { randomUUID } from "node:crypto";
import type { Result } from "@modelcontextprotocol/server";
import { ToolError } from "../tool-error.ts";
import type { CallEnvironment, Target } from "./call-tool.ts";
import { type InputChannel, Questions } from "./input/channel.ts";
import { newRoundState, type RoundState, roundChannel } from "./input/round-channel.ts";
import { invalidRequestState, type SharedContinuations } from "./input/sealed-rounds.ts";
import { Invocation } from "./invocation.ts";
import type { McpGenServerOptions } from "./options.ts";
import { type ContinuationStore, memoryContinuations } from "./parked-store.ts";

export { type ContinuationStore, memoryContinuations, type ParkedCall } from "./parked-store.ts";

/**
 * Turns a running call into a task (`ctx.becomeTask()` of a `@task deferred` tool): the
 * `CreateTaskResult` the request answers with, and the channel the call asks through from then on.
 */
export type ToTask = (invocation: Invocation<unknown>) => Promise<{ result: Result; channel: InputChannel }>;

/** One call of a target for a 2026-07-28 client. */
export interface ParkedRun<R> {
  target: Target<R>;
  /** The checked arguments of a new run. */
  args: unknown;
  /** The raw arguments, which the retry of a parked run must repeat. */
  argsKey: unknown;
  env: CallEnvironment;
  /** With it, the call becomes a task when it calls `ctx.becomeTask()`. */
  toTask?: ToTask;
}

/**
 * Calls from 2026-07-28 clients that wait for the user's input. In that revision a server
 * cannot send the client a request in the middle of a call: it answers `input_required`
 * (the questions, and an opaque `requestState`) and the client calls again with the answers.
 * mcp-gen keeps the execution of the call alive in between (*parked*), so `await ctx.elicit()`
 * simply resumes with the answer: the tool runs once, its side effects happen once.
 *
 * The `requestState` is a random id (122 bits) naming the parked call, bound to what it runs and
 * its arguments. A call parked longer than `inputTimeoutMs` is aborted.
 */
export interface ParkedCalls {
  /**
   * Runs a target for a 2026-07-28 client: a new run with checked `args` when the request
   * carries no `requestState`, else the retry of a parked one, which must come with the same raw
   * arguments (`argsKey`, compared as canonical JSON).
   */
  run<R>(call: ParkedRun<R>): Promise<R | Result>;
  /** The retry of a parked run (the request carries `requestState`). */
  resume<R>(call: Omit<ParkedRun<R>, "args">): Promise<R | Result>;
  /** The `input_required` channel of a 2026-07-28 call. */
  channel(invocation: Invocation<unknown>): InputChannel;
  /** Calls waiting for their client's answer now. */
  readonly size: number;
}

export function parkedCalls(
  options: Pick<McpGenServerOptions, "inputTimeoutMs" | "maxWaitingCalls"> & {
    store?: ContinuationStore;
    /** Set with shared state: re-runnable calls travel in sealed rounds instead of waiting here. */
    sharedContinuations?: SharedContinuations;
  },
): ParkedCalls {
  const shared = options.sharedContinuations;
  const sealed = shared?.codec;
  const ttl = options.inputTimeoutMs ?? 10 * 60_000;
  const max = options.maxWaitingCalls ?? 1000;
  const store = options.store ?? memoryContinuations();
  const waiting = new WeakMap<Invocation<unknown>, RoundState>();
  const stateOf = (invocation: Invocation<unknown>): RoundState => {
    let state = waiting.get(invocation);
    if (!state) {
      state = newRoundState();
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
    if (first === "task") {
      const becoming = state.becoming;
      state.becoming = undefined;
      // A retry that may not become a task (its client dropped the extension): the call goes on.
      if (!toTask) {
        becoming?.();
        return drive(invocation);
      }
      invocation.detach();
      const task = await toTask(invocation as Invocation<unknown>);
      invocation.channel = task.channel;
      becoming?.();
      return task.result;
    }
    invocation.detach();
    if (sealed && invocation.target.rerunnable) {
      // Nothing waits here: the retry, on any replica, runs the call again with every answer.
      const inputRequests = state.questions.inputRequests();
      const requestState = await sealed.mint(
        { target: invocation.target.key, args: state.argsKey, answers: state.given },
        invocation.request,
      );
      invocation.controller.abort(new Error("The call asked for input: it runs again with the answers."));
      return { resultType: "input_required", inputRequests, requestState } as Result;
    }
    const id = randomUUID();
    const timer = setTimeout(() => {
      store.take(id);
      invocation.controller.abort(
        new ToolError(`${invocation.target.label} got no answer from the client within ${ttl} ms.`),
      );
    }, ttl);
    timer.unref();
    store.put(id, {
      invocation: invocation as Invocation<unknown>,
      target: invocation.target.key,
      args: state.argsKey,
      timer,
    });
    void invocation.outcome.then(() => {
      clearTimeout(timer);
      store.take(id);
    });
    return {
      resultType: "input_required",
      inputRequests: state.questions.inputRequests(),
      requestState: id,
    } as Result;
  };

  /** A new run of `call.target`; `given`: the answers of earlier rounds (a sealed round's). */
  const start = <R>(call: ParkedRun<R>, given: Record<string, unknown>) => {
    const { env } = call;
    const invocation = new Invocation(call.target, call.args, env);
    // Its channel, built with it, holds this state: it is filled in, not replaced.
    const state = stateOf(invocation as Invocation<unknown>);
    state.given = { ...given, ...env.request?.mcpReq.inputResponses };
    state.questions = new Questions(state.given);
    state.argsKey = canonicalJson(call.argsKey);
    return drive(invocation, call.toTask);
  };

  /** The retry of a sealed round (any replica): opened once, then the call runs again with every answer. */
  const reopen = async <R>(call: ParkedRun<R>) => {
    const { target, env } = call;
    const refused = () => invalidRequestState({ targetKey: target.key, shared, rerunnable: true });
    const ctx = env.request;
    if (!ctx || !sealed) throw refused();
    const round = await sealed.verify(ctx.mcpReq.requestState<string>() as string, ctx).catch(() => {
      throw refused();
    });
    if (round.target !== target.key || round.args !== canonicalJson(call.argsKey)) throw refused();
    return start(call, round.answers);
  };

  return {
    get size() {
      return store.size;
    },

    run(call) {
      const requestState = call.env.request?.mcpReq.requestState();
      if (requestState !== undefined) {
        const local = typeof requestState === "string" ? store.take(requestState) : undefined;
        if (local) store.put(requestState as string, local);
        else if (sealed && call.target.rerunnable) return reopen(call);
        return this.resume(call);
      }
      return start(call, {});
    },

    async resume<R>({ target, argsKey, env, toTask }: Omit<ParkedRun<R>, "args">) {
      const state = env.request?.mcpReq.requestState<unknown>();
      const entry = typeof state === "string" ? store.take(state) : undefined;
      if (!entry || entry.target !== target.key || entry.args !== canonicalJson(argsKey)) {
        // A mismatched retry leaves the parked call where it was.
        if (entry) store.put(state as string, entry);
        throw invalidRequestState({ targetKey: target.key, shared, rerunnable: target.rerunnable ?? false });
      }
      clearTimeout(entry.timer);
      const invocation = entry.invocation as Invocation<R>;
      invocation.relink(env);
      stateOf(entry.invocation).questions.answer(env.request?.mcpReq.inputResponses ?? {});
      return drive(invocation, toTask);
    },

    channel(invocation) {
      const full = () =>
        store.size >= max
          ? new ToolError(`The server has ${max} calls waiting for their clients' input; try again later.`)
          : undefined;
      return roundChannel({ invocation, state: stateOf(invocation), full });
    },
  };
}

/** JSON with object keys sorted: equal arguments give equal strings. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}
