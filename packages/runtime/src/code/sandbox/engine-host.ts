import type { HostMessage, WorkerMessage } from "./protocol.ts";

/**
 * Where a sandbox's engine runs — a worker thread (`SandboxWorker`) or the calling thread
 * (`CallerThreadEngine`) — as one run sees it: it posts host messages and receives the engine's.
 */
export interface EngineHost {
  /** Settles once the engine can take a run; rejects when it cannot start. */
  readonly ready: Promise<void>;
  /** Where the engine's messages go (the run in progress), in the batches the engine posts. */
  onMessages: (messages: WorkerMessage[]) => void;
  /** Called once when the engine stops for good (crash, closed); `reason` is a sentence. */
  onExit: (reason: string) => void;
  post(message: HostMessage): void;
  /** Keeps the process alive while a run is in progress, not while the engine waits. */
  busy(busy: boolean): void;
  /** Stops the engine; it runs nothing more. */
  terminate(): Promise<void>;
}
