import { randomUUID } from "node:crypto";
import type { TaskRecord, TaskRun, TaskStatus } from "../server/task-store.ts";
import type { LeaseRequest } from "./types.ts";

/** What `create` is given. */
export interface NewTask {
  ttlMs: number | null;
  pollIntervalMs?: number;
  owner?: string;
  run?: TaskRun;
  /** A lease taken in the same step (`SharedTaskStore.create`). */
  lease?: LeaseRequest;
}

/** A fresh `working` record at `now`. */
export function newRecord(task: NewTask, now: number): TaskRecord {
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

/** Keeps namespaces to names every engine accepts unquoted. */
export function checkNamespace(namespace: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(namespace)) {
    throw new TypeError(
      `Invalid state namespace ${JSON.stringify(namespace)}: use up to 41 letters, digits and "_", not starting with a digit`,
    );
  }
  return namespace;
}

/** `url` without its password (and without `namespace`), for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@/]*@/, "//$1:***@");
  }
}

/**
 * Imports an engine's client package (an optional peer dependency) at run time, with an error that
 * says how to install it when it is missing. The name is not a literal in `import()`, so bundlers
 * (esbuild, Rollup, webpack) leave it to run time instead of failing to resolve a package that a
 * server without that engine never installs.
 */
export async function importClient<T>(name: string, shown: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "ERR_MODULE_NOT_FOUND" || !String((error as Error).message).includes(`'${name}'`))
      throw error;
    throw new Error(`The state URL ${shown} needs the "${name}" package: npm install ${name}`, {
      cause: error,
    });
  }
}
