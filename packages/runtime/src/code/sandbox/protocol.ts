/** The messages between the sandbox host and its worker thread (structured-clone data only). */

/** The limits the worker enforces itself (the host enforces wall time, calls and cancellation). */
export interface WorkerLimits {
  timeMs: number;
  memoryBytes: number;
  stackBytes: number;
  resultBytes: number;
  logBytes: number;
}

/** A program error as the worker reads it from the engine. */
export interface WorkerError {
  kind: "error" | "result" | "time" | "memory" | "stack" | "deadlock" | "sandbox";
  name?: string;
  message: string;
  line?: number;
  column?: number;
}

export type HostMessage =
  | {
      type: "run";
      run: number;
      program: string;
      /** Namespace → function names. */
      api: [string, string[]][];
      limits: WorkerLimits;
    }
  /** Answers of calls, gathered while the host was busy. */
  | { type: "answers"; run: number; answers: Answer[] };

export type Answer =
  | { call: number; ok: true; json: string }
  | { call: number; ok: false; name: string; message: string };

/** What the worker posts: `ready` once, then arrays of these, in order. */
export type WorkerMessage =
  | { type: "ready" }
  /** The engine set its deadline: the host's own timer counts from here, not from the post. */
  | { type: "started"; run: number }
  | {
      type: "call";
      run: number;
      call: number;
      namespace: string;
      fn: string;
      /** The arguments, parsed once from the JSON the engine wrote when the program called. */
      args: unknown;
      /** Started as the program ended, never awaited: recorded, not run. */
      unrun?: boolean;
    }
  | { type: "log"; run: number; level: "log" | "info" | "warn" | "error"; text: string }
  | { type: "done"; run: number; ok: true; json: string }
  | { type: "done"; run: number; ok: false; error: WorkerError; hardLimit: boolean };
