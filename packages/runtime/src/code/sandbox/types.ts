import type { CallToolResult } from "@modelcontextprotocol/client";
import type { ToolContext } from "../../context.ts";
import type { Validator } from "../../validation/validator.ts";

/**
 * One function of the program's API: how the bridge checks and runs a call of `namespace.fn(args)`.
 * `call` is the tool itself — an in-process handler or an MCP client call — and answers with an MCP
 * tool result (`isError` for a failure the program may catch).
 */
export interface ProgramTool {
  /** Checks the arguments before anything runs (the generated `validators.<tool>.input`). */
  readonly input?: Validator<unknown>;
  /** Checks `structuredContent` (the generated `validators.<tool>.output`). */
  readonly output?: Validator<unknown>;
  /** The contract's non-object result `T` travels as `structuredContent: { result: T }`; the program gets `T`. */
  readonly resultWrapped?: boolean;
  /** The tool destroys or overwrites (MCP `destructiveHint`): every call asks `permission` first. */
  readonly destructive?: boolean;
  /**
   * Runs the tool with checked arguments; `signal` aborts when the run ends or is cancelled.
   * `context` is the run's (`ProgramRunOptions.context`), for tools that ask the caller's client.
   */
  call(args: Record<string, unknown>, options: ToolCallOptions): Promise<CallToolResult>;
  /**
   * Optional, for tools that run in this process: runs the tool like `call`, but answers with
   * the value the program receives, already serialised as JSON — so the bridge neither builds a
   * `CallToolResult` nor serialises the value again. When the answer says `checkedBy` is this
   * binding's own `output` validator, the bridge does not check the value a second time; any
   * other answer is checked against `output` as `call`'s results are. May answer synchronously.
   * `bindManifest` provides it.
   */
  answer?(args: Record<string, unknown>, options: ToolCallOptions): ProgramAnswer | Promise<ProgramAnswer>;
}

/**
 * What a binding's `answer` hands the bridge: the program's value as JSON text (`checkedBy`: the
 * validator that already checked it, wrapped as `{ result }` when the binding is `resultWrapped`),
 * or the tool's failure, which the program receives as a catchable `ToolError`.
 */
export type ProgramAnswer =
  | { readonly ok: true; readonly json: string; readonly checkedBy?: Validator<unknown> }
  | { readonly ok: false; readonly message: string };

/** How the bridge calls a binding. */
export interface ToolCallOptions {
  signal: AbortSignal;
  /** The context of the call that runs the program, when there is one (a served code tool). */
  context?: ToolContext;
  /** The run's progress count, shared by its calls (see `innerToolContext`). */
  progress?: { count: number };
}

/** The program's API: `api.ledger.transfer_eth` is called as `ledger.transfer_eth({ … })`. */
export type ProgramApi = Readonly<Record<string, Readonly<Record<string, ProgramTool>>>>;

/** A destructive call waiting for permission. */
export interface PermissionRequest {
  readonly namespace: string;
  readonly fn: string;
  /** The validated arguments. */
  readonly arguments: Record<string, unknown>;
}

/** What a run may use; every limit ends the run with a message that names it. */
export interface RunLimits {
  /** Wall time of the whole run, tool calls included (default 30,000 ms). */
  timeMs: number;
  /** Heap of the program's JavaScript engine (default 64 MiB). */
  memoryBytes: number;
  /** Stack of the program's engine, which bounds recursion (default 256 KiB). */
  stackBytes: number;
  /** Tool calls per run (default 1,000). */
  maxCalls: number;
  /** The return value as JSON, in UTF-16 code units (default 1 MiB). */
  resultBytes: number;
  /** Console output; what is over is dropped with a note (default 64 KiB). */
  logBytes: number;
}

/** Options of one `run`. */
export interface ProgramRunOptions {
  /** The only capabilities of the program, by namespace and function name. */
  api: ProgramApi;
  /** Asked before each call of a destructive tool; without it, such calls are refused. */
  permission?: (request: PermissionRequest) => boolean | Promise<boolean>;
  limits?: Partial<RunLimits>;
  /** Cancels the whole run (in-flight tool calls get an aborted signal). */
  signal?: AbortSignal;
  /**
   * The context of the call that runs the program (a served code tool's `tools/call`): tools of
   * `bindManifest` called inside the program ask that call's client (elicitation, sampling,
   * roots) and report to it (progress, logs).
   */
  context?: ToolContext;
}

/** How a call ended. */
export type ProgramCallOutcome =
  | "ok"
  | "invalid-arguments"
  | "denied"
  | "tool-error"
  | "invalid-result"
  | "cancelled";

/** One call the program made. */
export interface ProgramCallRecord {
  /** `namespace.fn`. */
  tool: string;
  arguments: unknown;
  outcome: ProgramCallOutcome;
  /** What the program was told when the outcome is not `ok`. */
  error?: string;
  /** Milliseconds from the call leaving the sandbox to its answer. */
  ms: number;
}

/** A line the program wrote with `console`. */
export interface LogEntry {
  level: "log" | "info" | "warn" | "error";
  text: string;
}

/** Why a run failed: the program threw (`error`), or a limit or the caller stopped it. */
export type RunErrorKind =
  | "error"
  | "result"
  | "time"
  | "memory"
  | "stack"
  | "calls"
  | "cancelled"
  | "deadlock"
  | "sandbox";

/** A failed run, worded for the model that wrote the program. */
export interface RunError {
  kind: RunErrorKind;
  /** The thrown error's name (`TypeError` …) for `kind: "error"`. */
  name?: string;
  message: string;
  /** Where in the program (1-based line and column of the program text), when known. */
  line?: number;
  column?: number;
}

/** What a run did: its JSON value or why it failed, its logs and every call. */
export type RunResult =
  | { ok: true; value: unknown; logs: LogEntry[]; calls: ProgramCallRecord[] }
  | { ok: false; error: RunError; logs: LogEntry[]; calls: ProgramCallRecord[] };
