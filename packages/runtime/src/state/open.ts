import { checkNamespace, redactUrl } from "./records.ts";
import type { OpenStateOptions, SharedState } from "./types.ts";

/**
 * Opens the shared state named by `url`: `memory:` (this process only), `redis://` / `rediss://`
 * (the `ioredis` package) or `postgres://` / `postgresql://` (the `pg` package). Only the chosen
 * engine's client is loaded. Rejects with a `StateUnavailableError` naming the URL (without its
 * password) when the engine cannot be reached. `?namespace=` in the URL sets `options.namespace`.
 *
 * @example
 * const state = await openState("redis://127.0.0.1:6379");
 * serve(manifest, { transport: "http", state });
 */
export async function openState(url: string, options: OpenStateOptions = {}): Promise<SharedState> {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === "memory") {
    const { memoryState } = await import("./memory.ts");
    return memoryState(options);
  }
  if (scheme !== "redis" && scheme !== "rediss" && scheme !== "postgres" && scheme !== "postgresql") {
    throw new TypeError(
      `Unsupported state URL ${JSON.stringify(redactUrl(url))}: use memory:, redis://host:port or postgres://user@host:port/database`,
    );
  }
  const parsed = new URL(url);
  const namespace = checkNamespace(parsed.searchParams.get("namespace") ?? options.namespace ?? "mcp_gen");
  parsed.searchParams.delete("namespace");
  const bare = parsed.toString();
  const shown = redactUrl(bare);
  if (scheme === "redis" || scheme === "rediss") {
    const { openRedisState } = await import("./redis.ts");
    return openRedisState(bare, shown, { ...options, namespace });
  }
  const { openPostgresState } = await import("./postgres.ts");
  return openPostgresState(bare, shown, { ...options, namespace });
}
