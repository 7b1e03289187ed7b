import type { CallToolResult } from "@modelcontextprotocol/client";
import { checkedArguments, type TypedClientOptions, toToolCallResult } from "./call.ts";
import { startLegacyTask } from "./legacy-task.ts";
import { startModernTask } from "./modern-task.ts";
import type { TaskCallingClient, TaskStarter } from "./task-types.ts";
import { tapTransport } from "./transport-tap.ts";

/**
 * Creates the function a generated typed client runs tools as tasks with (`client.<tool>.task()`):
 * 2025-11-25 servers get `tools/call` with `task`, then `tasks/get`, `tasks/result` and
 * `tasks/cancel`; 2026-07-28 servers the tasks extension (`CreateTaskResult`, polling `tasks/get`,
 * `tasks/update`, `tasks/cancel`). The requests travel beside the SDK client on its transport,
 * whose wire codecs refuse task results.
 *
 * @example
 * const start = createTaskStarter(client);
 * const task = await start({ name: "render_report" }, { pages: 3 });
 * const r = await task.result();
 */
export function createTaskStarter(client: TaskCallingClient, options: TypedClientOptions = {}): TaskStarter {
  const validateArguments = options.validateArguments ?? true;
  const validateResults = options.validateResults ?? true;
  return async (spec, args, callOptions = {}) => {
    const input = checkedArguments(spec, args, validateArguments);
    const era = client.getProtocolEra?.() ?? "legacy";
    const start = {
      spec,
      input,
      callOptions,
      tap: tapTransport(client),
      settle: (raw: CallToolResult) => toToolCallResult(raw, spec, { validateResults, era }),
    };
    return era === "legacy" ? startLegacyTask(start) : startModernTask(client, start);
  };
}
