import type { RedisOptions } from "ioredis";
import { importClient } from "./records.ts";
import { redisTasks } from "./redis-tasks.ts";
import { type OpenStateOptions, type SharedState, type StateEvent, StateUnavailableError } from "./types.ts";

/** Events kept in the stream for replicas that reconnect (older ones are trimmed). */
const STREAM_LENGTH = 10_000;

/** Errors of ioredis that mean "Redis is not there" rather than "this command is wrong". */
const UNREACHABLE =
  /max retries per request|Connection is closed|ECONNREFUSED|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|ENOTFOUND|Stream isn't writeable|connect/i;

/**
 * The Redis engine (`redis://`, `rediss://`): tasks as hashes changed by Lua scripts, events on a
 * stream (`XADD`/`XREAD`: a replica that reconnects reads what it missed), continuations as
 * `SET NX` keys. With the append-only file on, a restarted Redis keeps all of them.
 */
export async function openRedisState(
  url: string,
  shown: string,
  options: OpenStateOptions & { namespace: string },
): Promise<SharedState> {
  const { Redis: RedisClient } = await importClient<typeof import("ioredis")>("ioredis", shown);
  const now = options.now ?? Date.now;
  const budget = options.unavailableAfterMs ?? 5000;
  // ioredis counts reconnections, not time: as many as fit in the budget with this back-off.
  const delay = (attempt: number) => Math.min(attempt * 100, 1000);
  let retries = 0;
  for (let spent = 0; spent < budget; spent += delay(retries)) retries++;
  const settings: RedisOptions = {
    lazyConnect: true,
    connectTimeout: budget,
    maxRetriesPerRequest: retries,
    retryStrategy: delay,
  };
  const unavailable = (error: unknown) =>
    new StateUnavailableError(
      `The state engine at ${shown} is unreachable: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  const client = new RedisClient(url, settings);
  const reader = new RedisClient(url, { ...settings, maxRetriesPerRequest: null });
  // Without listeners, ioredis prints every failed reconnection; calls report them instead.
  client.on("error", () => {});
  reader.on("error", () => {});
  try {
    await client.connect();
    await reader.connect();
  } catch (error) {
    client.disconnect();
    reader.disconnect();
    throw new StateUnavailableError(
      `Cannot reach the state engine at ${shown}: ${error instanceof Error ? error.message : String(error)}. Start it, or fix the URL (--state).`,
      { cause: error },
    );
  }
  const prefix = options.namespace;
  const stream = `${prefix}:events`;
  const guard = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, name, receiver) {
        const value = Reflect.get(object, name, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const result = (value as (...a: unknown[]) => unknown).apply(object, args);
          if (!(result instanceof Promise)) return result;
          return result.catch((error: unknown) => {
            throw error instanceof Error && UNREACHABLE.test(error.message) ? unavailable(error) : error;
          });
        };
      },
    });

  /** Task-status events `finish` appended with its outcome, until the same publish comes (bounded). */
  const announced = new BoundedSet(1_000);
  const listeners = new Set<(event: StateEvent) => void>();
  let closed = false;
  let last = ((await reader.xrevrange(stream, "+", "-", "COUNT", 1))[0]?.[0] as string | undefined) ?? "0-0";
  const read = async () => {
    while (!closed) {
      try {
        const reply = await reader.xread("BLOCK", 5000, "STREAMS", stream, last);
        for (const [, entries] of reply ?? []) {
          for (const [id, fields] of entries) {
            last = id;
            const event = JSON.parse(fields[1]!) as StateEvent;
            for (const listener of [...listeners]) listener(event);
          }
        }
      } catch {
        if (!closed) await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  };
  void read();

  return {
    url: shown,
    tasks: guard(
      redisTasks({
        client,
        prefix,
        now,
        pageSize: options.pageSize ?? 50,
        stream: { key: stream, length: STREAM_LENGTH, announced: (event) => announced.add(eventKey(event)) },
      }),
    ),
    events: guard({
      async publish(event: StateEvent) {
        // Appended already by the `finish` that stored this outcome (once: a later one is published).
        if (announced.delete(eventKey(event))) return;
        await client.xadd(stream, "MAXLEN", "~", STREAM_LENGTH, "*", "e", JSON.stringify(event));
      },
      subscribe(listener: (event: StateEvent) => void) {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    }),
    continuations: guard({
      async claim(id: string, expiresAt: number) {
        const ttl = Math.max(1, Math.ceil(expiresAt - now()));
        return (await client.set(`${prefix}:continuation:${id}`, "1", "PX", ttl, "NX")) === "OK";
      },
    }),
    async check() {
      if (client.status !== "ready") throw unavailable(new Error(`connection ${client.status}`));
      await client.ping().catch((error: unknown) => {
        throw unavailable(error);
      });
    },
    async close() {
      closed = true;
      listeners.clear();
      reader.disconnect();
      // QUIT would wait in the offline queue while Redis is away: only a live connection says goodbye.
      if (client.status === "ready") await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  } satisfies SharedState;
}

/** What identifies a task-status event (other events are never announced by the store). */
function eventKey(event: StateEvent): string {
  return event.type === "task-status" ? `${event.taskId}\n${event.status}` : "";
}

/** A set that forgets its oldest entries beyond `size` (a publish that never comes leaks nothing). */
class BoundedSet {
  readonly #entries = new Set<string>();
  constructor(private readonly size: number) {}
  add(entry: string): void {
    this.#entries.add(entry);
    if (this.#entries.size > this.size) this.#entries.delete(this.#entries.values().next().value!);
  }
  delete(entry: string): boolean {
    return entry !== "" && this.#entries.delete(entry);
  }
}
