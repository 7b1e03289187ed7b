/**
 * `@mcp-gen/runtime/state`: state several replicas of a server share — tasks, events and
 * continuations — on Redis or PostgreSQL, or in memory for one process. `serve(manifest,
 * { state: "redis://…" })` and `mcp-gen serve --state <url>` open it with `openState`.
 *
 * @example
 * import { openState } from "@mcp-gen/runtime/state";
 * const state = await openState(process.env.STATE_URL ?? "memory:");
 */

export {
  type ContinuationCodec,
  type ContinuationCodecOptions,
  continuationCodec,
} from "./continuation-codec.ts";
export { memoryState } from "./memory.ts";
export { openState } from "./open.ts";
export {
  type LeasedRun,
  OUTCOME_UNKNOWN,
  type RunOutcome,
  runLeased,
  type SweepReport,
  takeover,
} from "./takeover.ts";
export type {
  ContinuationStore,
  EventBus,
  LeaseRequest,
  OpenStateOptions,
  SharedState,
  SharedTaskStore,
  StateEvent,
} from "./types.ts";
export { StateUnavailableError } from "./types.ts";
