import type { CallToolResult } from "@modelcontextprotocol/client";
import { isOver, resultOf, type TaskInfo, type TaskStart, type ToolTask, taskInfo } from "./task-types.ts";

let tokens = 0;

/**
 * A tool started as a 2025-11-25 task: `tools/call` with `task`, then `tasks/get`, `tasks/result`
 * and `tasks/cancel`; progress arrives on the call's progress token.
 */
export async function startLegacyTask(start: TaskStart): Promise<ToolTask<any>> {
  const { tap, spec, input, callOptions, settle } = start;
  const token = `mcp-gen-task-${++tokens}`;
  const { onprogress } = callOptions;
  const stop = onprogress
    ? tap.onNotification((n) => {
        if (n.method !== "notifications/progress" || n.params?.progressToken !== token) return false;
        const { progress, total, message } = n.params as {
          progress: number;
          total?: number;
          message?: string;
        };
        onprogress({
          progress,
          ...(total !== undefined ? { total } : {}),
          ...(message !== undefined ? { message } : {}),
        });
        return true;
      })
    : () => {};
  const request = (method: string, params: Record<string, unknown>) =>
    tap.dispatch({ method, params }).then(resultOf);
  let created: Record<string, unknown>;
  try {
    created = await request("tools/call", {
      name: spec.name,
      arguments: input,
      task: callOptions.ttlMs !== undefined ? { ttl: callOptions.ttlMs } : {},
      ...(onprogress ? { _meta: { progressToken: token } } : {}),
    });
  } catch (error) {
    stop();
    throw error;
  }
  const info = legacyInfo(created.task);
  const { taskId } = info;
  return {
    taskId,
    created: info,
    status: async () => legacyInfo(await request("tasks/get", { taskId })),
    async result() {
      try {
        return settle((await request("tasks/result", { taskId })) as unknown as CallToolResult);
      } finally {
        stop();
      }
    },
    async cancel() {
      try {
        await request("tasks/cancel", { taskId });
      } catch (error) {
        // A 2025 server refuses to cancel a task that is over (-32602): it stays as it is.
        const now = legacyInfo(await request("tasks/get", { taskId }));
        if (!isOver(now.status)) throw error;
      }
    },
  };
}

/** A 2025-11-25 `Task` (`ttl`, `pollInterval`) as a `TaskInfo`. */
function legacyInfo(value: unknown): TaskInfo {
  return taskInfo((value ?? {}) as Record<string, unknown>, "ttl", "pollInterval");
}
