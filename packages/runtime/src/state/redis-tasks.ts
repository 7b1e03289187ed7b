import type { Redis } from "ioredis";
import {
  CANCELLED_MESSAGE,
  expiresAt,
  invalidCursor,
  type NewLeasedTask,
  newRecord,
} from "../server/task-records.ts";
import type { TaskRecord } from "../server/task-store.ts";
import { ANSWER, CHANGE, CREATE, LEASE } from "./redis-scripts.ts";
import type { SharedTaskStore, StateEvent } from "./types.ts";

/** The scripts as commands of the client (loaded once, then run by their SHA). */
interface Scripted {
  mcpGenCreate(task: string, index: string, seq: string, leases: string, ...args: string[]): Promise<number>;
  mcpGenChange(
    task: string,
    leases: string,
    stream: string,
    ...args: string[]
  ): Promise<[number, string[]] | null>;
  mcpGenAnswer(task: string, leases: string, ...args: string[]): Promise<[string[], string[]] | null>;
  mcpGenLease(task: string, leases: string, ...args: string[]): Promise<string | null>;
}

/** How long Redis keeps a record after its TTL (the store already hides it): clocks may differ. */
const GRACE_MS = 60_000;

/** Decodes a task hash (`HGETALL`, flat or as an object); `undefined` for an empty one. */
function decode(hash: string[] | Record<string, string>): TaskRecord | undefined {
  const fields: Record<string, string> = Array.isArray(hash) ? {} : hash;
  if (Array.isArray(hash)) for (let i = 0; i < hash.length; i += 2) fields[hash[i]!] = hash[i + 1]!;
  if (fields.rec === undefined) return undefined;
  const task = { ...JSON.parse(fields.rec), status: fields.status, lastUpdatedAt: fields.upd } as TaskRecord;
  if (fields.msg !== undefined) task.statusMessage = fields.msg;
  if (fields.result !== undefined) task.result = JSON.parse(fields.result);
  if (fields.error !== undefined) task.error = JSON.parse(fields.error);
  if (fields.cancel === "1") task.cancelRequested = true;
  if (fields.lh !== undefined) task.lease = { holder: fields.lh, expiresAt: Number(fields.lx) };
  for (const [field, value] of Object.entries(fields)) {
    if (field.startsWith("q:")) task.questions = { ...task.questions, [field.slice(2)]: JSON.parse(value) };
    if (field.startsWith("a:")) task.answers = { ...task.answers, [field.slice(2)]: JSON.parse(value) };
  }
  return task;
}

/** The task store on Redis: one hash per task, an index per owner, an index of leases. */
export function redisTasks(options: {
  client: Redis;
  prefix: string;
  now: () => number;
  pageSize: number;
  /** The event stream: `finish` appends its task's status event there in the same script. */
  stream: { key: string; length: number; announced(event: StateEvent): void };
}): SharedTaskStore {
  const { client, prefix, now, pageSize, stream } = options;
  client.defineCommand("mcpGenCreate", { numberOfKeys: 4, lua: CREATE });
  client.defineCommand("mcpGenChange", { numberOfKeys: 3, lua: CHANGE });
  client.defineCommand("mcpGenAnswer", { numberOfKeys: 2, lua: ANSWER });
  client.defineCommand("mcpGenLease", { numberOfKeys: 2, lua: LEASE });
  const scripted = client as unknown as Scripted;
  const key = (taskId: string) => `${prefix}:task:${taskId}`;
  const leases = `${prefix}:leases`;
  const index = (owner: string | undefined) => `${prefix}:owner:${owner === undefined ? "-" : `=${owner}`}`;
  const iso = () => new Date(now()).toISOString();
  const fenced = async (taskId: string, holder: string, event: string, ...pairs: string[]) => {
    const reply = await scripted.mcpGenChange(
      key(taskId),
      leases,
      stream.key,
      String(now()),
      taskId,
      holder,
      event,
      String(stream.length),
      ...pairs,
    );
    return { stored: reply?.[0] === 1, task: reply ? decode(reply[1]) : undefined };
  };
  const change = async (taskId: string, ...pairs: string[]) => (await fenced(taskId, "", "", ...pairs)).task;
  const outcomeOf = (outcome: Parameters<SharedTaskStore["storeResult"]>[1]) => [
    "status",
    outcome.status,
    "upd",
    iso(),
    ...(outcome.status === "completed"
      ? ["result", JSON.stringify(outcome.result)]
      : ["error", JSON.stringify(outcome.error)]),
  ];
  const lease = async (taskId: string, holder: string, ttlMs: number, mode: string) => {
    const until = now() + ttlMs;
    const held = await scripted.mcpGenLease(
      key(taskId),
      leases,
      String(now()),
      taskId,
      holder,
      String(until),
      mode,
    );
    return held === null ? undefined : { holder, expiresAt: Number(held) };
  };
  /** The live records of `ids`, in order; dangling index entries (expired records) are dropped. */
  const records = async (ids: string[], from?: string) => {
    if (ids.length === 0) return [];
    const pipeline = client.pipeline();
    for (const id of ids) pipeline.hgetall(key(id));
    const replies = (await pipeline.exec()) ?? [];
    const found: TaskRecord[] = [];
    const gone: string[] = [];
    replies.forEach(([error, hash], i) => {
      if (error) throw error;
      const task = decode(hash as Record<string, string>);
      const at = task && expiresAt(task);
      if (task && (at === null || at === undefined || at > now())) found.push(task);
      else gone.push(ids[i]!);
    });
    if (gone.length > 0 && from) await client.zrem(from, ...gone);
    return found;
  };

  return {
    async create(input: NewLeasedTask) {
      const task = newRecord(input, now());
      const at = expiresAt(task);
      const { taskId, createdAt, ttlMs, pollIntervalMs, owner, run } = task;
      const fixed = { taskId, createdAt, ttlMs, pollIntervalMs, owner, run };
      await scripted.mcpGenCreate(
        key(taskId),
        index(owner),
        `${prefix}:seq`,
        leases,
        taskId,
        JSON.stringify(fixed),
        task.status,
        task.lastUpdatedAt,
        at === null ? "" : String(at),
        ttlMs === null ? "" : String(ttlMs + GRACE_MS),
        task.lease?.holder ?? "",
        String(task.lease?.expiresAt ?? 0),
      );
      return task;
    },
    async get(taskId, owner) {
      const [task] = await records([taskId]);
      return task && task.owner === owner ? task : undefined;
    },
    setStatus: (taskId, status, message) =>
      change(taskId, "status", status, "upd", iso(), ...(message !== undefined ? ["msg", message] : [])),
    storeResult: (taskId, outcome) => change(taskId, ...outcomeOf(outcome)),
    async finish(taskId, holder, outcome) {
      // Its task-status event goes with the outcome (one script); the bus drops the same publish.
      const event = { type: "task-status" as const, taskId, status: outcome.status };
      const ended = await fenced(taskId, holder, JSON.stringify(event), ...outcomeOf(outcome));
      if (ended.stored) stream.announced(event);
      return ended;
    },
    cancel: (taskId) =>
      change(taskId, "status", "cancelled", "msg", CANCELLED_MESSAGE, "cancel", "1", "upd", iso()),
    ask: (taskId, questions) =>
      change(
        taskId,
        "status",
        "input_required",
        "upd",
        iso(),
        ...Object.entries(questions).flatMap(([k, v]) => [`q:${k}`, JSON.stringify(v)]),
      ),
    async answer(taskId, answers) {
      const pairs = Object.entries(answers).flatMap(([k, v]) => [k, JSON.stringify(v)]);
      const reply = await scripted.mcpGenAnswer(key(taskId), leases, String(now()), taskId, iso(), ...pairs);
      if (!reply) return { task: undefined, accepted: [] };
      return { task: decode(reply[1]), accepted: reply[0] };
    },
    acquireLease: (taskId, { holder, ttlMs }) => lease(taskId, holder, ttlMs, "acquire"),
    renewLease: (taskId, { holder, ttlMs }) => lease(taskId, holder, ttlMs, "renew"),
    async releaseLease(taskId, holder) {
      await lease(taskId, holder, 0, "release");
    },
    async lapsed({ limit = 100 } = {}) {
      const ids = await client.zrangebyscore(leases, "-inf", String(now()), "LIMIT", 0, limit);
      const found = await records(ids, leases);
      return found.filter(
        (t) =>
          t.lease && t.lease.expiresAt <= now() && !["completed", "failed", "cancelled"].includes(t.status),
      );
    },
    async list({ cursor, owner } = {}) {
      const from = index(owner);
      let start = 0;
      if (cursor !== undefined) {
        const rank = await client.zrank(from, cursor);
        if (rank === null) throw invalidCursor(cursor);
        start = rank + 1;
      }
      const ids = await client.zrange(from, String(start), String(start + pageSize));
      const page = ids.slice(0, pageSize);
      const tasks = (await records(page, from)).filter((t) => t.owner === owner);
      return ids.length > pageSize ? { tasks, nextCursor: page.at(-1)! } : { tasks };
    },
  };
}
