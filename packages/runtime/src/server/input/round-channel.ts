import { CLIENT_CAPABILITIES_META_KEY, type ClientCapabilities } from "@modelcontextprotocol/server";
import type { ToolError } from "../../tool-error.ts";
import type { Invocation } from "../invocation.ts";
import type { ToTask } from "../parked.ts";
import { type InputChannel, missingCapability, modernRequest, Questions, supports } from "./channel.ts";
import { requestProgress } from "./request-channel.ts";

/** What a running 2026-07-28 call has asked, and how the request serving it wakes. */
export interface RoundState {
  questions: Questions;
  argsKey: string;
  /** Every answer the client gave this call so far (what a sealed round carries). */
  given: Record<string, unknown>;
  /** Wakes the request waiting for this invocation: a question was asked, or it becomes a task. */
  wake?: (why: "asked" | "task") => void;
  /** How the request now serving the invocation turns it into a task, when it may. */
  toTask?: ToTask;
  /** The tool called `ctx.becomeTask()`: resolves it once the task exists (or cannot). */
  becoming?: () => void;
}

/** The state of a call that has asked nothing yet. */
export function newRoundState(): RoundState {
  return { questions: new Questions(), argsKey: "", given: {} };
}

/**
 * The `input_required` channel of a 2026-07-28 call (`parked.ts` answers the rounds): a question
 * is kept in `state` and wakes the request serving the call, which answers with every open
 * question; questions asked together (`Promise.all`) go out in one round. `full` refuses a
 * question while the server cannot keep one more waiting call.
 */
export function roundChannel(options: {
  invocation: Invocation<unknown>;
  state: RoundState;
  full: () => ToolError | undefined;
}): InputChannel {
  const { invocation, state, full } = options;
  return {
    ask(request, key) {
      const envelope = invocation.request.mcpReq.envelope as Record<string, unknown> | undefined;
      const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
      if (!supports(capabilities, request)) {
        return Promise.reject(missingCapability({ request, label: invocation.target.label, strict: true }));
      }
      const before = state.questions.size;
      const answer = state.questions.ask(modernRequest(request), key, full);
      if (state.questions.size > before) queueMicrotask(() => state.wake?.("asked"));
      return answer;
    },
    progress: requestProgress(invocation),
    becomeTask() {
      if (!state.toTask) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const before = state.becoming;
        state.becoming = () => {
          before?.();
          resolve();
        };
        queueMicrotask(() => state.wake?.("task"));
      });
    },
  };
}
