import type { TaskStatus } from "@modelcontextprotocol/server";
import { memoryTasks } from "./memory-tasks.ts";
import { TERMINAL } from "./task-records.ts";

/** Where a task is in its life (the SDK's MCP "Tasks" status); the last three are terminal. */
export type { TaskStatus };

/** A JSON-RPC error, as a failed task keeps it. */
export interface TaskFailure {
  code: number;
  message: string;
  data?: unknown;
}

/** One task as a store keeps it: its state, and its outcome once terminal. */
export interface TaskRecord {
  readonly taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** How long the task is kept after its creation, in milliseconds; `null`: for ever. */
  readonly ttlMs: number | null;
  /** How often a client should poll, in milliseconds. */
  readonly pollIntervalMs?: number;
  /** Who created it (a 2025 session id); listings and lookups of other owners do not see it. */
  readonly owner?: string;
  /** The `tools/call` result of a completed task. */
  result?: Record<string, unknown>;
  /** Why a task failed (a protocol-level error, not a tool error). */
  error?: TaskFailure;
  /** What runs, for a replica that takes the task over (shared stores, `@mcp-gen/runtime/state`). */
  readonly run?: TaskRun;
  /** Outstanding `input_required` questions by key (shared stores). */
  questions?: Record<string, unknown>;
  /** The client's answers by key, once given (shared stores); each key is answered once. */
  answers?: Record<string, unknown>;
  /** Set by `cancel`: the replica running the task stops it (shared stores). */
  cancelRequested?: boolean;
  /** The replica running the task and until when its lease holds (shared stores). */
  lease?: TaskLease;
}

/** What a task runs: enough for another replica to decide whether it may run it again. */
export interface TaskRun {
  /** The tool's name. */
  tool: string;
  /** The checked arguments. */
  arguments: Record<string, unknown>;
  /** The tool is safe to run again (read-only or idempotent): a takeover re-runs it, else fails it. */
  rerunnable: boolean;
}

/** Who runs a task: a replica's id and the lease's expiry, in milliseconds since the epoch. */
export interface TaskLease {
  holder: string;
  expiresAt: number;
}

/** One page of `list`. */
export interface TaskPage {
  tasks: TaskRecord[];
  /** Passed to the next `list` for the page after; absent on the last page. */
  nextCursor?: string;
}

/** What a store's `create` is given. */
export interface NewTask {
  /** How long the record is kept after its creation, in ms; `null`: for ever. */
  ttlMs: number | null;
  pollIntervalMs?: number;
  /** Whom the task belongs to (a 2025 session); `undefined` for everybody with its id. */
  owner?: string;
  /** What the task runs, for another replica to run it again. */
  run?: TaskRun;
}

/**
 * Keeps the tasks of a server (`McpGenServerOptions.tasks.store`). A store may persist records
 * anywhere; the running executions themselves always live in the server process. Records past
 * their `ttlMs` are gone: `get` no longer finds them and `list` skips them.
 */
export interface TaskStore {
  /** Creates a `working` task with a fresh, unguessable id. */
  create(task: NewTask): Promise<TaskRecord>;
  /** The task, or `undefined` when unknown, expired or of another owner. */
  get(taskId: string, owner?: string): Promise<TaskRecord | undefined>;
  /** Moves a non-terminal task to `status` (with a message); the task as it is now, `undefined` when unknown. */
  setStatus(
    taskId: string,
    status: "working" | "input_required",
    statusMessage?: string,
  ): Promise<TaskRecord | undefined>;
  /** Makes a non-terminal task `completed` (with its result) or `failed` (with its error). */
  storeResult(
    taskId: string,
    outcome:
      | { status: "completed"; result: Record<string, unknown> }
      | { status: "failed"; error: TaskFailure },
  ): Promise<TaskRecord | undefined>;
  /** Makes a non-terminal task `cancelled`; a terminal one stays as it is. */
  cancel(taskId: string): Promise<TaskRecord | undefined>;
  /** The owner's tasks, oldest first, a page at a time; an unknown cursor throws a `RangeError`. */
  list(options?: { cursor?: string; owner?: string }): Promise<TaskPage>;
}

/** Whether a task is over (its status can no longer change). */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.includes(status);
}

/** Options of `memoryTaskStore`. */
export interface MemoryTaskStoreOptions {
  /** Tasks per `list` page. Default 50. */
  pageSize?: number;
  /** The clock, in milliseconds since the epoch (tests move it to expire tasks). Default `Date.now`. */
  now?: () => number;
}

/**
 * The default task store: records in a `Map` of this process, dropped once past their `ttlMs`.
 *
 * @example
 * const store = memoryTaskStore({ pageSize: 20 });
 * serve(manifest, { tasks: { store } });
 */
export function memoryTaskStore(options: MemoryTaskStoreOptions = {}): TaskStore {
  return memoryTasks(options.now ?? Date.now, options.pageSize ?? 50);
}
