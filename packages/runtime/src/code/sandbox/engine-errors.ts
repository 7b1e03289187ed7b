import { PROGRAM_OPENING } from "./prelude.ts";
import type { WorkerError } from "./protocol.ts";

/** A thrown value of the engine (as `ctx.dump` gives it) as an error for the model. */
export function describeThrown(options: {
  thrown: unknown;
  deadline: number;
  memoryFull: boolean;
}): WorkerError {
  const { thrown, deadline, memoryFull } = options;
  const error = (thrown && typeof thrown === "object" ? thrown : { message: String(thrown) }) as {
    name?: string;
    message?: string;
    stack?: string;
  };
  const message = String(error.message ?? thrown);
  const where = locate(error.stack);
  if (error.name === "InternalError" && message === "interrupted" && Date.now() > deadline)
    return { kind: "time", message: "the program ran past its time limit and was stopped", ...where };
  if ((error.name === "InternalError" && message === "out of memory") || memoryFull)
    return {
      kind: "memory",
      message: "the program ran out of memory (over the sandbox's memory limit) and was stopped",
      ...where,
    };
  if (error.name === "InternalError" && message === "stack overflow")
    return {
      kind: "stack",
      message: "the program's recursion went too deep (over the sandbox's stack limit) and was stopped",
      ...where,
    };
  if (error.name === "ResultError") return { kind: "result", message };
  return { kind: "error", name: error.name ?? "Error", message, ...where };
}

/** The first frame of the program in an engine stack, as program line and column. */
function locate(stack: string | undefined): { line?: number; column?: number } {
  const match = /program\.js:(\d+):(\d+)/.exec(stack ?? "");
  if (!match) return {};
  const line = Number(match[1]);
  const column = Number(match[2]) - (line === 1 ? PROGRAM_OPENING.length : 0);
  return { line, column: Math.max(1, column) };
}

/**
 * The most stack a program's engine may use: the WebAssembly build's own stack is a few MiB, and
 * QuickJS must stop recursion before that runs out (past it, the engine would write over its heap).
 */
export const MAX_STACK_BYTES = 1024 * 1024;

/** An exception of the host's own (a RangeError of this thread's stack), not one the engine describes. */
export function isHostError(error: unknown): boolean {
  return error instanceof RangeError || (error instanceof Error && error.name === "RuntimeError");
}

/** The host's own exception out of the engine as a run error: the thread's stack, or the engine itself. */
export function describeHostError(thrown: unknown): WorkerError {
  return thrown instanceof RangeError
    ? {
        kind: "stack",
        message:
          "the program's recursion went too deep (this thread's stack ran out before the sandbox's own limit) and was stopped",
      }
    : {
        kind: "sandbox",
        message: `the sandbox's engine failed (${thrown instanceof Error ? thrown.message : String(thrown)}) and was replaced`,
      };
}
