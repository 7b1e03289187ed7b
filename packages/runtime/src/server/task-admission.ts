import {
  MissingRequiredClientCapabilityError,
  type ProtocolEra,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { TASKS_EXTENSION } from "../tasks-extension.ts";
import { type ManifestTool, taskSupportOf } from "./manifest.ts";
import { protocolError } from "./protocol.ts";
import { clientHasTasks } from "./task-wire.ts";

/** What decides whether a `tools/call` runs as a task. */
export interface TaskAdmission {
  tool: ManifestTool;
  era: ProtocolEra;
  /** The `tools/call` params (a 2025 client asks for a task with `task`). */
  params: Record<string, unknown>;
  ctx: ServerContext;
}

/**
 * Whether a call starts as a task: a 2025 client sent `task`, or a 2026-07-28 client declared
 * the tasks extension and the tool supports tasks (a `@task deferred` tool starts as a plain
 * call: `ctx.becomeTask()` makes it a task). Throws the spec's error where the call cannot run:
 * `task` for a tool without task support, none for a `required` tool (2025: method not found;
 * 2026-07-28: the missing extension).
 */
export function startsAsTask(call: TaskAdmission): boolean {
  const support = taskSupportOf(call.tool);
  const name = call.tool.definition.name;
  if (call.era === "legacy") {
    const asked = call.params.task !== undefined;
    if (asked && !support) {
      throw protocolError(
        ProtocolErrorCode.MethodNotFound,
        `Tool "${name}" does not run as a task (its execution.taskSupport is "forbidden")`,
      );
    }
    if (!asked && support === "required") {
      throw protocolError(
        ProtocolErrorCode.MethodNotFound,
        `Tool "${name}" runs only as a task: call it with a task parameter (execution.taskSupport is "required")`,
      );
    }
    return asked;
  }
  if (!support) return false;
  if (clientHasTasks(call.ctx)) return !call.tool.taskDeferred;
  if (support === "required") {
    throw new MissingRequiredClientCapabilityError(
      { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      `Tool "${name}" runs only as a task: the client must support the ${TASKS_EXTENSION} extension`,
    );
  }
  return false;
}
