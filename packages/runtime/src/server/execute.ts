import type { Result } from "@modelcontextprotocol/server";
import type { CallEnvironment, Target } from "./call-tool.ts";
import { Invocation, type Outcome } from "./invocation.ts";
import type { ParkedCalls, ToTask } from "./parked.ts";

/** One call of a tool, resource or prompt implementation with checked arguments. */
export interface Execution<R> {
  target: Target<R>;
  args: unknown;
  env: CallEnvironment;
  /** What binds a 2026-07-28 retry to the call it resumes (compared as canonical JSON); default `args`. */
  argsKey?: unknown;
  /** Where 2026-07-28 calls wait for their client's input; without it a call cannot wait. */
  parked?: ParkedCalls;
  /** How a `@task deferred` call becomes a task at `ctx.becomeTask()`. */
  toTask?: ToTask;
}

/**
 * The one execution path of a call, from the cheapest way up: plain (no context, no timeout:
 * the implementation is simply called), with a context (an `Invocation`, cancellable, with a
 * timeout), waiting for input (a 2026-07-28 call that asks parks between requests, `parked.ts`).
 * Calls that run as tasks start here too, from the task service. The outcome becomes the result
 * through `target.settle`.
 */
export async function execute<R>(execution: Execution<R>): Promise<R | Result> {
  const { target, args, env, parked } = execution;
  if (
    parked &&
    env.era === "modern" &&
    (target.usesContext || env.request?.mcpReq.requestState() !== undefined)
  ) {
    const argsKey = execution.argsKey === undefined ? args : execution.argsKey;
    return parked.run({ target, args, argsKey, env, toTask: execution.toTask });
  }
  if (!target.usesContext && env.timeoutMs === undefined) {
    let outcome: Outcome;
    try {
      outcome = { ok: true, value: await target.run(args, undefined) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    return target.settle(outcome, env);
  }
  const invocation = new Invocation(target, args, env);
  return invocation.settle(await invocation.outcome);
}
