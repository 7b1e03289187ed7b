import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import { startLegacyTask } from "../../client/legacy-task.ts";
import { startModernTask } from "../../client/modern-task.ts";
import { TaskError, type TaskStart } from "../../client/task-types.ts";
import { tapTransport } from "../../client/transport-tap.ts";
import { ToolError } from "../../tool-error.ts";

/**
 * A tool of an upstream that runs only as a task (`execution.taskSupport: "required"`), called
 * from a program, and followed to its result; `tasks/cancel` is sent when the run's `signal`
 * aborts. A 2026-07-28 server gets `tools/call` with the tasks extension declared for that request,
 * and its `CreateTaskResult` is polled (`tasks/get` at the server's interval, its questions
 * answered with `tasks/update` through `ask`). A 2025 server gets `tools/call` with `task`, then
 * `tasks/result` (its questions are requests of their own, which the relay's handlers take), and
 * its progress on the call's token. The requests travel beside the SDK client, whose wire codecs
 * refuse task results.
 */
export async function callAsTask(input: {
  client: Client;
  /** The tool's name as the program sees it (`memory.render`). */
  label: string;
  name: string;
  args: Record<string, unknown>;
  signal: AbortSignal;
  /** Answers one question of the task (an embedded `elicitation/create` …) through the run's client. */
  ask(request: unknown): Promise<unknown>;
  onprogress?: (p: { progress: number; total?: number; message?: string }) => void;
}): Promise<CallToolResult> {
  const { label, signal } = input;
  const onInput = async (requests: Record<string, unknown>) =>
    Object.fromEntries(
      await Promise.all(Object.entries(requests).map(async ([key, r]) => [key, await input.ask(r)] as const)),
    );
  try {
    signal.throwIfAborted();
    const start: TaskStart = {
      spec: { name: input.name },
      input: input.args,
      callOptions: { onInput, ...(input.onprogress ? { onprogress: input.onprogress } : {}) },
      tap: tapTransport(input.client),
      settle: (raw) => raw as never,
    };
    const task =
      input.client.getProtocolEra() === "modern"
        ? await startModernTask(input.client, start)
        : await startLegacyTask(start);
    const cancel = () => void task.cancel().catch(() => {});
    signal.addEventListener("abort", cancel, { once: true });
    try {
      if (signal.aborted) cancel();
      return (await task.result({ signal })) as unknown as CallToolResult;
    } finally {
      signal.removeEventListener("abort", cancel);
    }
  } catch (error) {
    if (error instanceof TaskError)
      throw new ToolError(`${label} ran as a task, which ended: ${error.message}`);
    throw error;
  }
}
