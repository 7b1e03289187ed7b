import type { CallToolResult, Client } from "@modelcontextprotocol/client";
import { startModernTask } from "../../client/modern-task.ts";
import { TaskError } from "../../client/task-types.ts";
import { tapTransport } from "../../client/transport-tap.ts";
import { ToolError } from "../../tool-error.ts";

/**
 * A tool of a 2026-07-28 upstream that runs only as a task (`execution.taskSupport: "required"`),
 * called from a program: `tools/call` with the tasks extension declared for that request, the
 * `CreateTaskResult` followed to its result (polling `tasks/get` at the server's interval, its
 * questions answered with `tasks/update` through `ask`), and `tasks/cancel` sent when the run's
 * `signal` aborts. The requests travel beside the SDK client (its wire codecs refuse task results).
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
}): Promise<CallToolResult> {
  const { label, signal } = input;
  const onInput = async (requests: Record<string, unknown>) =>
    Object.fromEntries(
      await Promise.all(Object.entries(requests).map(async ([key, r]) => [key, await input.ask(r)] as const)),
    );
  try {
    signal.throwIfAborted();
    const task = await startModernTask(input.client, {
      spec: { name: input.name },
      input: input.args,
      callOptions: { onInput },
      tap: tapTransport(input.client),
      settle: (raw) => raw as never,
    });
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
