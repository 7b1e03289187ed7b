import { randomUUID } from "node:crypto";
import type { LeaseRequest } from "../state/types.ts";
import type { NewTask, TaskRecord, TaskStatus } from "./task-store.ts";

/** What a shared store's `create` is given: with `lease`, the task is held from the start. */
export interface NewLeasedTask extends NewTask {
  lease?: LeaseRequest;
}

/** A fresh `working` record at `now`. */
export function newRecord(task: NewLeasedTask, now: number): TaskRecord {
  const at = new Date(now).toISOString();
  return {
    taskId: randomUUID(),
    status: "working",
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs: task.ttlMs,
    ...(task.pollIntervalMs !== undefined ? { pollIntervalMs: task.pollIntervalMs } : {}),
    ...(task.owner !== undefined ? { owner: task.owner } : {}),
    ...(task.run !== undefined ? { run: task.run } : {}),
    ...(task.lease !== undefined
      ? { lease: { holder: task.lease.holder, expiresAt: now + task.lease.ttlMs } }
      : {}),
  };
}

/** When a record is gone, in milliseconds since the epoch; `null`: never. */
export function expiresAt(task: Pick<TaskRecord, "createdAt" | "ttlMs">): number | null {
  return task.ttlMs === null ? null : Date.parse(task.createdAt) + task.ttlMs;
}

/** The statuses after which a task no longer changes. */
export const TERMINAL: readonly TaskStatus[] = ["completed", "failed", "cancelled"];

/** The message of a cancelled task. */
export const CANCELLED_MESSAGE = "Cancelled by the client";

/** The error `list` throws for a cursor it does not know. */
export function invalidCursor(cursor: string): RangeError {
  return new RangeError(`Invalid cursor: ${JSON.stringify(cursor)}`);
}
