import type { TaskLease, TaskRecord, TaskStore } from "../server/task-store.ts";

/**
 * A task store several replicas share: `TaskStore` plus what a task needs to outlive the replica
 * running it — its questions and answers, a cancel flag, and a lease the running replica renews
 * and another takes once it lapses. Every change is atomic in the engine; a terminal task no
 * longer changes.
 */
export interface SharedTaskStore extends TaskStore {
  /**
   * `TaskStore.create`, and with `lease` the new task is held by `lease.holder` from the start,
   * in the same atomic step: a replica that dies right after creating it leaves a lease that
   * lapses, so another replica takes the task (never a task nobody runs).
   */
  create(task: Parameters<TaskStore["create"]>[0] & { lease?: LeaseRequest }): Promise<TaskRecord>;
  /** Adds outstanding questions (by key) and makes the task `input_required`. */
  ask(taskId: string, questions: Record<string, unknown>): Promise<TaskRecord | undefined>;
  /**
   * Records the answers to outstanding questions, each key once: a key not outstanding (unknown,
   * or answered already) is not `accepted`. The task is `working` again once none is left.
   */
  answer(
    taskId: string,
    answers: Record<string, unknown>,
  ): Promise<{ task: TaskRecord | undefined; accepted: string[] }>;
  /**
   * Takes the lease of a non-terminal task for `ttlMs`: free, lapsed, or already `holder`'s.
   * `undefined` when another replica holds it (or the task is unknown, expired or over).
   */
  acquireLease(taskId: string, lease: LeaseRequest): Promise<TaskLease | undefined>;
  /** Extends `holder`'s lease by `ttlMs` from now; `undefined` when `holder` no longer holds it. */
  renewLease(taskId: string, lease: LeaseRequest): Promise<TaskLease | undefined>;
  /**
   * `storeResult` fenced by the lease: stores the outcome only while `holder` holds it (a replica
   * whose lease another took stores nothing, so a task never ends twice), and gives the lease up.
   */
  finish(
    taskId: string,
    holder: string,
    outcome: Parameters<TaskStore["storeResult"]>[1],
  ): Promise<{ stored: boolean; task: TaskRecord | undefined }>;
  /** Gives the lease up (the run ended); a lease of another holder stays. */
  releaseLease(taskId: string, holder: string): Promise<void>;
  /** Non-terminal tasks whose lease has lapsed: their replica died; another may take them over. */
  lapsed(options?: { limit?: number }): Promise<TaskRecord[]>;
}

/** Who asks for a lease, and for how long. */
export interface LeaseRequest {
  holder: string;
  ttlMs: number;
}

/** What replicas tell each other. */
export type StateEvent =
  | { type: "resource-updated"; uri: string }
  | { type: "list-changed"; list: "tools" | "resources" | "prompts" }
  | { type: "task-status"; taskId: string; status: TaskRecord["status"]; owner?: string };

/**
 * Events published on any replica reach the listeners of every replica (this one included),
 * in the order each engine keeps them. `publish` resolves once the engine holds the event and
 * rejects when it cannot take it: nothing is dropped silently.
 */
export interface EventBus {
  publish(event: StateEvent): Promise<void>;
  /** Calls `listener` with every event from now on; the returned function stops it. */
  subscribe(listener: (event: StateEvent) => void): () => void;
}

/**
 * Single use of 2026-07-28 `input_required` continuations: the first `claim` of an id wins,
 * every later one (on any replica) loses, until `expiresAt` (milliseconds since the epoch) when
 * the id is forgotten — by then the sealed request state carrying it has expired too.
 */
export interface ContinuationStore {
  claim(id: string, expiresAt: number): Promise<boolean>;
}

/** The shared state of a server: tasks, events and continuations on one engine. */
export interface SharedState {
  /** The engine's URL without its password, for messages. */
  readonly url: string;
  readonly tasks: SharedTaskStore;
  readonly events: EventBus;
  readonly continuations: ContinuationStore;
  /** Resolves when the engine answers; rejects with a `StateUnavailableError` when it does not. */
  check(): Promise<void>;
  /** Closes the engine's connections. */
  close(): Promise<void>;
}

/** Options of `openState`. */
export interface OpenStateOptions {
  /**
   * Keeps this server's state apart from others on the same engine: a Redis key prefix, a
   * PostgreSQL schema. Letters, digits and `_`. Default `"mcp_gen"` (or the URL's `?namespace=`).
   */
  namespace?: string;
  /** The clock, in milliseconds since the epoch (tests move it). Default `Date.now`. */
  now?: () => number;
  /** Tasks per `list` page. Default 50. */
  pageSize?: number;
  /** How long the engine may be unreachable before a call fails, roughly. Default 5000 ms. */
  unavailableAfterMs?: number;
}

/** The state engine cannot be reached: the message names it (without its password) and the cause. */
export class StateUnavailableError extends Error {
  override readonly name = "StateUnavailableError";
}
