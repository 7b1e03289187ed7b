import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { bindCaller, type SealedRound } from "../server/input/sealed-rounds.ts";
import type { ServerManifest } from "../server/manifest.ts";
import { type ListsChanged, logToStderr, type SharedLists } from "../server/options.ts";
import type { RunningServer, ServeOptions } from "../server/serve.ts";
import { continuationCodec } from "./continuation-codec.ts";
import { openState } from "./open.ts";
import { withTerminalCache } from "./terminal-cache.ts";
import type { SharedState } from "./types.ts";

/**
 * `serve()` with `state`: opens the engine (a URL) or takes the given `SharedState`, keeps the
 * tasks there (`tasks.store`), adds the engine to the HTTP readiness check (`/readyz` answers 503
 * while it is unreachable), and sends `notifyResourceUpdated` and the list changes of `update()`
 * through the event bus, so the clients of every replica hear them. A state it opened is closed with the server.
 */
export async function serveWithState(
  manifest: ServerManifest,
  options: ServeOptions & { state: string | SharedState },
  serve: (manifest: ServerManifest, options: ServeOptions) => Promise<RunningServer>,
): Promise<RunningServer> {
  const lease = leaseMs();
  const keys = stateKeys(options.stateKeys);
  const { state: given, stateKeys: _, ...rest } = options;
  const state = typeof given === "string" ? await openState(given) : given;
  const report = options.onError ?? logToStderr;
  /** Aborted once the server stopped: the task takeover sweeps stop. */
  const stopped = new AbortController();
  let down = false;
  /** The engine's part of readiness: unreachable is reported once when it starts, not every probe. */
  const engineReady = async () => {
    try {
      await state.check();
      down = false;
      return true;
    } catch (error) {
      if (!down)
        report({ kind: "protocol", error: error instanceof Error ? error : new Error(String(error)) });
      down = true;
      return false;
    }
  };
  // Over HTTP (with or without `http` options), readiness includes the engine.
  const http = rest.transport === "http" ? (("http" in rest ? rest.http : undefined) ?? {}) : undefined;
  const ready = http?.ready;
  /** Every replica (this one included) hears it from the bus; an engine that cannot take it is reported. */
  const publishResourceUpdated = (uri: string) => {
    state.events.publish({ type: "resource-updated", uri }).catch((error: unknown) => {
      report({ kind: "protocol", error: error instanceof Error ? error : new Error(String(error)) });
    });
  };
  /** The servers' list-change callbacks on this replica, called when any replica's `update()` publishes. */
  const listeners = new Set<(changed: ListsChanged) => void>();
  const sharedLists: SharedLists = {
    publish: (changed) => {
      const lists = LISTS.filter((list) => changed[list]);
      Promise.all(lists.map((list) => state.events.publish({ type: "list-changed", list }))).catch(
        (error: unknown) =>
          report({ kind: "protocol", error: error instanceof Error ? error : new Error(String(error)) }),
      );
    },
    listen: (notify) => listeners.add(notify),
  };
  const withState = {
    ...rest,
    publishResourceUpdated,
    sharedLists,
    sharedContinuations: keys
      ? {
          codec: continuationCodec<SealedRound>({
            keys,
            continuations: state.continuations,
            bind: bindCaller,
          }),
        }
      : {},
    tasks: {
      ...rest.tasks,
      shared: {
        // The replica that ran a task answers `tasks/get` of its result without the engine.
        tasks: withTerminalCache(state.tasks),
        events: state.events,
        holder: replicaId(),
        signal: stopped.signal,
        ...(lease !== undefined ? { leaseMs: lease } : {}),
        report: (error: unknown) =>
          report({ kind: "protocol", error: error instanceof Error ? error : new Error(String(error)) }),
      },
    },
    ...(http
      ? { http: { ...http, ready: async () => (await engineReady()) && (ready ? await ready() : true) } }
      : {}),
  } as ServeOptions;
  let running: RunningServer;
  try {
    running = await serve(manifest, withState);
  } catch (error) {
    stopped.abort();
    if (typeof given === "string") await state.close();
    throw error;
  }
  const stop = state.events.subscribe((event) => {
    if (event.type === "resource-updated") running.notifyResourceUpdated(event.uri);
    if (event.type === "list-changed") {
      const changed = { tools: false, resources: false, prompts: false, [event.list]: true };
      for (const notify of listeners) notify(changed);
    }
  });
  const release = async () => {
    stop();
    listeners.clear();
    stopped.abort();
    if (typeof given === "string") await state.close();
  };
  const closed = running.closed.then(release);
  return {
    url: running.url,
    closed,
    close: async () => {
      await running.close();
      await closed;
    },
    drain: async (timeoutMs) => {
      const result = await running.drain(timeoutMs);
      await closed;
      return result;
    },
    update: (next) => running.update(next),
    notifyResourceUpdated: publishResourceUpdated,
  };
}

const LISTS = ["tools", "resources", "prompts"] as const;

/** This process's id as a lease holder: host, pid and a random part (a restarted pid differs). */
function replicaId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * How long a task's lease holds without renewal: `MCP_GEN_STATE_LEASE_MS` (another replica takes
 * a dead replica's task that long after its last renewal), default 15 s.
 */
function leaseMs(): number | undefined {
  const given = process.env.MCP_GEN_STATE_LEASE_MS;
  if (given === undefined || given === "") return undefined;
  const ms = Number(given);
  if (!Number.isInteger(ms) || ms < 300) {
    throw new Error(
      `MCP_GEN_STATE_LEASE_MS must be a whole number of milliseconds ≥ 300 (got ${JSON.stringify(given)})`,
    );
  }
  return ms;
}

/**
 * The keys sealing `input_required` rounds: the option, else `MCP_GEN_STATE_KEYS` (newest first,
 * comma-separated), else `MCP_GEN_STATE_KEY`; `undefined` when none is configured.
 */
function stateKeys(given: readonly string[] | undefined): readonly string[] | undefined {
  const env = process.env.MCP_GEN_STATE_KEYS || process.env.MCP_GEN_STATE_KEY;
  const keys =
    given ??
    env
      ?.split(",")
      .map((k) => k.trim())
      .filter(Boolean);
  if (!keys || keys.length === 0) return undefined;
  const short = keys.findIndex((k) => Buffer.byteLength(k) < 32);
  if (short >= 0) {
    throw new Error(
      `The state key #${short + 1} (stateKeys / MCP_GEN_STATE_KEYS / MCP_GEN_STATE_KEY) is shorter than 32 bytes: use e.g. \`openssl rand -base64 32\`.`,
    );
  }
  return keys;
}
