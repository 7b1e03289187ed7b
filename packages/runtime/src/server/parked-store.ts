import type { Invocation } from "./invocation.ts";

/** A call waiting for its client's answers, under its `requestState`. */
export interface ParkedCall {
  invocation: Invocation<unknown>;
  /** The target's key (`tool:name` …) and its arguments as canonical JSON. */
  target: string;
  args: string;
  timer: NodeJS.Timeout;
}

/** Where parked calls are kept by `requestState` (in this process by default). */
export interface ContinuationStore {
  put(id: string, call: ParkedCall): void;
  /** Removes and returns the call. */
  take(id: string): ParkedCall | undefined;
  readonly size: number;
}

/** Parked calls in a `Map` of this process. */
export function memoryContinuations(): ContinuationStore {
  const calls = new Map<string, ParkedCall>();
  return {
    put: (id, call) => void calls.set(id, call),
    take(id) {
      const call = calls.get(id);
      calls.delete(id);
      return call;
    },
    get size() {
      return calls.size;
    },
  };
}
