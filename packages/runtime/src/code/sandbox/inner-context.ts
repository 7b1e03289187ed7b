import type { ToolContext } from "../../context.ts";

/**
 * The context of a tool called from inside a program, derived from the context of the call that
 * runs the program (the served code tool's `tools/call`): its questions — elicitation, sampling,
 * roots — go to the client that sent the program, in that client's protocol era (a 2025
 * server-to-client request, a 2026-07-28 `input_required` round of the code tool's call); its log
 * messages reach that client named by the tool; its progress becomes the code tool's progress
 * (one rising count for the whole program, the tool and its own figures in the message). It
 * aborts with the inner call's own signal. It never turns the code tool's call into a task.
 */
export function innerToolContext(options: {
  outer: ToolContext;
  toolName: string;
  signal: AbortSignal;
  /** The program's progress count, shared by every call of one run. */
  progress: { count: number };
}): ToolContext {
  const { outer, toolName, signal } = options;
  return {
    toolName,
    kind: "tool",
    uri: undefined,
    era: outer.era,
    protocolVersion: outer.protocolVersion,
    requestId: outer.requestId,
    sessionId: outer.sessionId,
    auth: outer.auth,
    client: outer.client,
    signal,
    async progress(progress, total, message) {
      if (signal.aborted) return;
      const figures = total !== undefined ? `${progress}/${total}` : String(progress);
      await outer.progress(++options.progress.count, undefined, `${toolName}: ${message ?? figures}`);
    },
    log: (level, data, logger) => outer.log(level, data, logger ?? toolName),
    sample: (request, inputOptions) => outer.sample(request, inputOptions),
    elicit: (request, inputOptions) => outer.elicit(request, inputOptions),
    roots: (inputOptions) => outer.roots(inputOptions),
    elicitationComplete: (elicitationId) => outer.elicitationComplete(elicitationId),
    // the program's own call is the one that may become a task, not a call inside it
    async becomeTask() {},
    closeStream() {},
    notifyResourceUpdated: (uri) => outer.notifyResourceUpdated(uri),
  };
}
