import type { ParkedCalls, parkedCalls } from "./parked.ts";

/** `ParkedCalls` whose module (and the 2026-07-28 input machinery behind it) loads on first use. */
export interface LazyParkedCalls extends ParkedCalls {
  /** Starts loading now (a manifest with a tool, resource or prompt that takes a context). */
  preload(): void;
}

/**
 * The calls parked for their 2026-07-28 client's input, loaded only when a call can park or
 * resume: one of a target that takes a context, or a retry carrying a `requestState`. A server of
 * plain tools never loads `parked.ts`, `input/*` or the continuation store.
 */
export function lazyParkedCalls(options: Parameters<typeof parkedCalls>[0]): LazyParkedCalls {
  let loaded: ParkedCalls | undefined;
  let loading: Promise<ParkedCalls> | undefined;
  const load = () => {
    loading ??= import("./parked.ts").then((parked) => {
      loaded = parked.parkedCalls(options);
      return loaded;
    });
    return loading;
  };
  return {
    get size() {
      return loaded?.size ?? 0;
    },
    run: async (call) => (await load()).run(call),
    resume: async (call) => (await load()).resume(call),
    channel(invocation) {
      // Only a call run by `run()` or `resume()` builds this channel, so the module is there.
      if (!loaded) throw new Error("mcp-gen: the 2026-07-28 input channel was asked for before it loaded");
      return loaded.channel(invocation);
    },
    preload: () => void load(),
  };
}
