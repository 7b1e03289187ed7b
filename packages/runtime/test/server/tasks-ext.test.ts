import { connectInMemory, tapTransport } from "@mcp-gen/runtime/client";
import { createServer } from "@mcp-gen/runtime/server";
import { createTaskSessionFromClient, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cancellations } from "./fixtures/tasks/tools.ts";
import { type BuiltTasks, buildTasks } from "./support/tasks.ts";

// The tasks requester of `@modelcontextprotocol/ext-tasks` (what the MCP Inspector uses) drives
// mcp-gen's tasks: 2025-11-25 through the SDK client, 2026-07-28 through its raw dispatch (the
// SDK client's codec refuses CreateTaskResult), here the runtime's transport tap.

const TASKS = "io.modelcontextprotocol/tasks";
const INFO = { name: "ext-tasks-test", version: "1.0.0" };

let built: BuiltTasks;
beforeAll(async () => {
  built = await buildTasks();
});
afterAll(() => built.dispose());

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
  cancellations.length = 0;
});

async function session(era: "legacy" | "modern") {
  const connection = await connectInMemory(createServer(built.manifest, { tasks: { pollIntervalMs: 10 } }), {
    protocol: era === "legacy" ? "legacy" : "2026-07-28",
    clientInfo: INFO,
    clientOptions: { capabilities: era === "modern" ? { extensions: { [TASKS]: {} } } : {} },
  });
  open.push(connection);
  const tap = tapTransport(connection.client);
  const tasks =
    era === "legacy"
      ? createTaskSessionFromClient(connection.client, { endpointId: "mcp-gen-legacy" })
      : createTaskSessionFromClient(connection.client, {
          endpointId: "mcp-gen-modern",
          rawDispatch: (request, options) => tap.dispatch(request as never, options?.signal) as never,
          v2RequestFraming: {
            protocolVersion: "2026-07-28",
            clientInfo: INFO,
            clientCapabilities: { extensions: { [TASKS]: {} } },
          },
        });
  open.push(tasks);
  return tasks;
}

describe.each(["legacy", "modern"] as const)("ext-tasks requester, %s era", (era) => {
  it("runs a task tool to its result", async () => {
    const tasks = await session(era);
    const execution = await tasks.callTool("countdown", { steps: 2 });
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe("completed");
    expect(resultFromTaskOutcome(outcome)).toMatchObject({
      structuredContent: era === "legacy" ? { result: "done after 2 steps" } : "done after 2 steps",
    });
  });

  it("cancels a task-only tool, which sees its signal aborted", async () => {
    const tasks = await session(era);
    const execution = await tasks.callTool("wait_for_cancel", {});
    await execution.cancel();
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe("cancelled");
    expect(cancellations).toEqual(["The task was cancelled by the client (tasks/cancel)."]);
  });
});
