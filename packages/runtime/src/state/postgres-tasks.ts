import {
  CANCELLED_MESSAGE,
  expiresAt,
  invalidCursor,
  type NewLeasedTask,
  newRecord,
} from "../server/task-records.ts";
import type { TaskRecord, TaskStatus } from "../server/task-store.ts";
import type { SharedTaskStore } from "./types.ts";

/** Runs one statement (with retries while the engine restarts); `tx` runs several in a transaction. */
export interface Sql {
  query<R>(text: string, values?: unknown[]): Promise<R[]>;
  tx<T>(work: (query: <R>(text: string, values?: unknown[]) => Promise<R[]>) => Promise<T>): Promise<T>;
}

interface Row {
  task_id: string;
  owner: string | null;
  status: TaskStatus;
  status_message: string | null;
  created_at: string;
  last_updated_at: string;
  ttl_ms: string | null;
  poll_interval_ms: number | null;
  run: TaskRecord["run"] | null;
  result: Record<string, unknown> | null;
  error: TaskRecord["error"] | null;
  questions: Record<string, unknown>;
  answers: Record<string, unknown>;
  cancel_requested: boolean;
  lease_holder: string | null;
  lease_until: string | null;
}

function decode(row: Row | undefined): TaskRecord | undefined {
  if (!row) return undefined;
  return {
    taskId: row.task_id,
    status: row.status,
    createdAt: row.created_at,
    lastUpdatedAt: row.last_updated_at,
    ttlMs: row.ttl_ms === null ? null : Number(row.ttl_ms),
    ...(row.status_message !== null ? { statusMessage: row.status_message } : {}),
    ...(row.poll_interval_ms !== null ? { pollIntervalMs: row.poll_interval_ms } : {}),
    ...(row.owner !== null ? { owner: row.owner } : {}),
    ...(row.run !== null ? { run: row.run } : {}),
    ...(row.result !== null ? { result: row.result } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
    ...(Object.keys(row.questions).length > 0 ? { questions: row.questions } : {}),
    ...(Object.keys(row.answers).length > 0 ? { answers: row.answers } : {}),
    ...(row.cancel_requested ? { cancelRequested: true } : {}),
    ...(row.lease_holder !== null
      ? { lease: { holder: row.lease_holder, expiresAt: Number(row.lease_until) } }
      : {}),
  };
}

/** The task store on PostgreSQL: one row per task in `<namespace>.tasks`; rows are the truth. */
export function postgresTasks(options: {
  sql: Sql;
  schema: string;
  now: () => number;
  pageSize: number;
}): SharedTaskStore {
  const { sql, schema, now, pageSize } = options;
  const table = `${schema}.tasks`;
  const LIVE = "(expires_at IS NULL OR expires_at > $2)";
  const RUNNING = "status NOT IN ('completed', 'failed', 'cancelled')";
  const iso = () => new Date(now()).toISOString();
  const ENDED = "lease_holder = NULL, lease_until = NULL";
  /** Applies `set` ($3… are `values`) to a live, running task; the task as it is now. */
  const fenced = async (taskId: string, set: string, values: unknown[], holder?: string) => {
    const guard = holder === undefined ? "" : ` AND lease_holder = $${values.length + 3}`;
    const [row] = await sql.query<Row>(
      `UPDATE ${table} SET ${set} WHERE task_id = $1 AND ${LIVE} AND ${RUNNING}${guard} RETURNING *`,
      [taskId, now(), ...values, ...(holder === undefined ? [] : [holder])],
    );
    if (row) return { stored: true, task: decode(row) };
    const [current] = await sql.query<Row>(`SELECT * FROM ${table} WHERE task_id = $1 AND ${LIVE}`, [
      taskId,
      now(),
    ]);
    return { stored: false, task: decode(current) };
  };
  const change = async (taskId: string, set: string, values: unknown[] = []) =>
    (await fenced(taskId, set, values)).task;
  const outcomeOf = (outcome: Parameters<SharedTaskStore["storeResult"]>[1]): [string, unknown[]] => [
    `status = $3, last_updated_at = $4, ${outcome.status === "completed" ? "result" : "error"} = $5, ${ENDED}`,
    [outcome.status, iso(), JSON.stringify(outcome.status === "completed" ? outcome.result : outcome.error)],
  ];

  return {
    async create(input: NewLeasedTask) {
      const task = newRecord(input, now());
      await sql.query(
        `INSERT INTO ${table} (task_id, owner, status, created_at, last_updated_at, ttl_ms, expires_at, poll_interval_ms, run, lease_holder, lease_until)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (task_id) DO NOTHING`,
        [
          task.taskId,
          task.owner ?? null,
          task.status,
          task.createdAt,
          task.lastUpdatedAt,
          task.ttlMs,
          expiresAt(task),
          task.pollIntervalMs ?? null,
          task.run === undefined ? null : JSON.stringify(task.run),
          task.lease?.holder ?? null,
          task.lease?.expiresAt ?? null,
        ],
      );
      return task;
    },
    async get(taskId, owner) {
      const [row] = await sql.query<Row>(
        `SELECT * FROM ${table} WHERE task_id = $1 AND ${LIVE} AND owner IS NOT DISTINCT FROM $3`,
        [taskId, now(), owner ?? null],
      );
      return decode(row);
    },
    setStatus: (taskId, status, message) =>
      change(
        taskId,
        `status = $3, last_updated_at = $4${message !== undefined ? ", status_message = $5" : ""}`,
        [status, iso(), ...(message !== undefined ? [message] : [])],
      ),
    storeResult: (taskId, outcome) => change(taskId, ...outcomeOf(outcome)),
    finish: (taskId, holder, outcome) => fenced(taskId, ...outcomeOf(outcome), holder),
    cancel: (taskId) =>
      change(
        taskId,
        `status = 'cancelled', status_message = $3, cancel_requested = true, last_updated_at = $4, ${ENDED}`,
        [CANCELLED_MESSAGE, iso()],
      ),
    ask: (taskId, questions) =>
      change(taskId, "status = 'input_required', questions = questions || $3::jsonb, last_updated_at = $4", [
        JSON.stringify(questions),
        iso(),
      ]),
    answer: (taskId, answers) =>
      sql.tx(async (query) => {
        const [row] = await query<Row>(`SELECT * FROM ${table} WHERE task_id = $1 AND ${LIVE} FOR UPDATE`, [
          taskId,
          now(),
        ]);
        const task = decode(row);
        if (!task || ["completed", "failed", "cancelled"].includes(task.status))
          return { task, accepted: [] };
        const accepted = Object.keys(answers).filter((key) => task.questions && key in task.questions);
        if (accepted.length === 0) return { task, accepted };
        const questions = { ...task.questions };
        const given = { ...task.answers };
        for (const key of accepted) {
          delete questions[key];
          given[key] = answers[key];
        }
        const status =
          Object.keys(questions).length === 0 && task.status === "input_required" ? "working" : task.status;
        const [updated] = await query<Row>(
          `UPDATE ${table} SET questions = $3, answers = $4, status = $5, last_updated_at = $6 WHERE task_id = $1 AND $2::bigint IS NOT NULL RETURNING *`,
          [taskId, now(), JSON.stringify(questions), JSON.stringify(given), status, iso()],
        );
        return { task: decode(updated), accepted };
      }),
    async acquireLease(taskId, { holder, ttlMs }) {
      const until = now() + ttlMs;
      const [row] = await sql.query<Row>(
        `UPDATE ${table} SET lease_holder = $3, lease_until = $4 WHERE task_id = $1 AND ${LIVE} AND ${RUNNING}
         AND (lease_holder IS NULL OR lease_holder = $3 OR lease_until <= $2) RETURNING *`,
        [taskId, now(), holder, until],
      );
      return row ? { holder, expiresAt: until } : undefined;
    },
    async renewLease(taskId, { holder, ttlMs }) {
      const until = now() + ttlMs;
      const [row] = await sql.query<Row>(
        `UPDATE ${table} SET lease_until = $4 WHERE task_id = $1 AND ${LIVE} AND ${RUNNING} AND lease_holder = $3 RETURNING *`,
        [taskId, now(), holder, until],
      );
      return row ? { holder, expiresAt: until } : undefined;
    },
    async releaseLease(taskId, holder) {
      await sql.query(
        `UPDATE ${table} SET ${ENDED} WHERE task_id = $1 AND $2::bigint IS NOT NULL AND lease_holder = $3`,
        [taskId, now(), holder],
      );
    },
    async lapsed({ limit = 100 } = {}) {
      const rows = await sql.query<Row>(
        `SELECT * FROM ${table} WHERE lease_holder IS NOT NULL AND lease_until <= $2 AND ${LIVE} AND ${RUNNING}
         AND $1::int > 0 ORDER BY lease_until LIMIT $1`,
        [limit, now()],
      );
      return rows.map((row) => decode(row)!);
    },
    async list({ cursor, owner } = {}) {
      let after = 0;
      if (cursor !== undefined) {
        const [found] = await sql.query<{ seq: string }>(
          `SELECT seq FROM ${table} WHERE task_id = $1 AND ${LIVE} AND owner IS NOT DISTINCT FROM $3`,
          [cursor, now(), owner ?? null],
        );
        if (!found) throw invalidCursor(cursor);
        after = Number(found.seq);
      }
      const rows = await sql.query<Row>(
        `SELECT * FROM ${table} WHERE seq > $1 AND ${LIVE} AND owner IS NOT DISTINCT FROM $3 ORDER BY seq LIMIT $4`,
        [after, now(), owner ?? null, pageSize + 1],
      );
      const tasks = rows.slice(0, pageSize).map((row) => decode(row)!);
      return rows.length > pageSize ? { tasks, nextCursor: tasks.at(-1)!.taskId } : { tasks };
    },
  };
}
