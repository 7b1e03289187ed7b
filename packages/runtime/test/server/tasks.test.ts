import { tapTransport } from "@mcp-gen/runtime/client";
import { type McpGenServerOptions, serve } from "@mcp-gen/runtime/server";
import { memoryTaskStore } from "@mcp-gen/runtime/server/tasks";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Client,
  InMemoryTransport,
  PROTOCOL_VERSION_META_KEY,
} from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { cancellations } from "./fixtures/tasks/tools.ts";
import { type BuiltTasks, buildTasks } from "./support/tasks.ts";

// MCP tasks end to end in memory, with raw SDK v2 client requests: 2025-11-25 (`task` on
// tools/call, tasks/get|result|list|cancel, notifications/tasks/status) and the 2026-07-28
// tasks extension (CreateTaskResult with resultType "task", tasks/get|update|cancel).

const TASKS = "io.modelcontextprotocol/tasks";

let built: BuiltTasks;
beforeAll(async () => {
  built = await buildTasks();
});
afterAll(() => built.dispose());

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
  cancellations.length = 0;
});

/** Takes any result as it is. */
interface Connected {
  client: Client;
  /** Notifications the client received, in order. */
  notifications: { method: string; params: any }[];
  /** One raw JSON-RPC request (with the 2026-07-28 envelope on modern connections). */
  request(method: string, params?: object): Promise<Record<string, any>>;
}

async function connect(
  era: "legacy" | "modern",
  options: McpGenServerOptions & { tasksExtension?: boolean } = {},
): Promise<Connected> {
  const { tasksExtension = true, ...serverOptions } = options;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  open.push(
    await serve(built.manifest, {
      transport: serverSide as never,
      onError: () => {},
      ...serverOptions,
      tasks: { pollIntervalMs: 10, ...serverOptions.tasks },
    }),
  );
  const client = new Client(
    { name: "tasks-test", version: "1.0.0" },
    {
      versionNegotiation: { mode: era === "legacy" ? "legacy" : { pin: "2026-07-28" } },
      capabilities: {
        elicitation: { form: {} },
        ...(era === "modern" && tasksExtension ? { extensions: { [TASKS]: {} } } : {}),
      },
      inputRequired: { autoFulfill: false },
    },
  );
  client.setRequestHandler("elicitation/create", () => ({ action: "accept", content: { name: "Ada" } }));
  await client.connect(clientSide);
  open.push(client);
  // The SDK client refuses 2026-07-28 task results and drops progress once a request is
  // answered: task traffic goes beside it, on its transport.
  const tap = tapTransport(client);
  const notifications: Connected["notifications"] = [];
  tap.onNotification((n) => {
    notifications.push({ method: n.method, params: n.params });
    return n.method === "notifications/progress";
  });
  const envelope = {
    [PROTOCOL_VERSION_META_KEY]: "2026-07-28",
    [CLIENT_INFO_META_KEY]: { name: "tasks-test", version: "1.0.0" },
    [CLIENT_CAPABILITIES_META_KEY]: {
      elicitation: { form: {} },
      ...(tasksExtension ? { extensions: { [TASKS]: {} } } : {}),
    },
  };
  return {
    client,
    notifications,
    async request(method, params = {}) {
      const p = params as { _meta?: object };
      const meta = era === "modern" ? { ...envelope, ...p._meta } : p._meta;
      const response = await tap.dispatch({
        method,
        params: { ...params, ...(meta ? { _meta: meta } : {}) },
      });
      if (response.kind === "error") throw Object.assign(new Error(response.error.message), response.error);
      return response.result;
    },
  };
}

describe("2025-11-25 tasks", () => {
  it("advertises tasks and lists execution.taskSupport", async () => {
    const { client } = await connect("legacy");
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await client.listTools();
    expect(Object.fromEntries(tools.map((t) => [t.name, t.execution]))).toEqual({
      add: undefined,
      ask_name: { taskSupport: "optional" },
      countdown: { taskSupport: "optional" },
      greet_later: { taskSupport: "optional" },
      wait_for_cancel: { taskSupport: "required" },
    });
  });

  it("creates a task, reports progress and status, and gives its result", async () => {
    const c = await connect("legacy");
    const created = await c.request("tools/call", {
      name: "countdown",
      arguments: { steps: 3 },
      task: { ttl: 60_000 },
      _meta: { progressToken: "p-1" },
    });
    expect(created.task).toMatchObject({ status: "working", ttl: 60_000, pollInterval: 10 });
    const { taskId } = created.task;
    const result = await c.request("tasks/result", { taskId });
    expect(result).toEqual({
      content: [{ type: "text", text: "done after 3 steps" }],
      structuredContent: { result: "done after 3 steps" },
      _meta: { "io.modelcontextprotocol/related-task": { taskId } },
    });
    const task = await c.request("tasks/get", { taskId });
    expect(task).toMatchObject({ taskId, status: "completed", statusMessage: "step 3 of 3" });
    await c.client.ping();
    const progress = c.notifications.filter((n) => n.method === "notifications/progress");
    expect(progress.map((n) => n.params)).toEqual(
      [1, 2, 3].map((i) => ({
        progressToken: "p-1",
        progress: i,
        total: 3,
        message: `step ${i} of 3`,
      })),
    );
    const statuses = c.notifications.filter((n) => n.method === "notifications/tasks/status");
    expect(statuses.map((n) => [n.params.taskId, n.params.status])).toEqual([[taskId, "completed"]]);
  });

  it("runs an optional tool normally without a task, and refuses a required one (-32601)", async () => {
    const c = await connect("legacy");
    const plain = await c.client.callTool({ name: "countdown", arguments: { steps: 1 } });
    expect(plain.structuredContent).toEqual({ result: "done after 1 steps" });
    await expect(c.request("tools/call", { name: "wait_for_cancel", arguments: {} })).rejects.toMatchObject({
      code: -32601,
      message: expect.stringContaining('Tool "wait_for_cancel" runs only as a task'),
    });
    await expect(
      c.request("tools/call", { name: "add", arguments: { a: 1, b: 2 }, task: {} }),
    ).rejects.toMatchObject({
      code: -32601,
    });
  });

  it("cancels a running task: its signal is aborted and its status is cancelled", async () => {
    const c = await connect("legacy");
    const { task } = await c.request("tools/call", { name: "wait_for_cancel", arguments: {}, task: {} });
    expect((await c.request("tasks/get", { taskId: task.taskId })).status).toBe("working");
    const cancelled = await c.request("tasks/cancel", { taskId: task.taskId });
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: "cancelled" });
    await c.client.ping();
    expect(cancellations).toEqual(["The task was cancelled by the client (tasks/cancel)."]);
    const statuses = c.notifications.filter((n) => n.method === "notifications/tasks/status");
    expect(statuses.map((n) => n.params.status)).toEqual(["cancelled"]);
    await expect(c.request("tasks/cancel", { taskId: task.taskId })).rejects.toMatchObject({ code: -32602 });
    await expect(c.request("tasks/result", { taskId: task.taskId })).rejects.toMatchObject({ code: -32602 });
  });

  it("asks the client on the stream of tasks/result while the task is input_required", async () => {
    const c = await connect("legacy");
    const { task } = await c.request("tools/call", { name: "ask_name", arguments: {}, task: {} });
    const result = await c.request("tasks/result", { taskId: task.taskId });
    expect(result.structuredContent).toEqual({ result: "Hello, Ada!" });
    await c.client.ping();
    const statuses = c.notifications.filter((n) => n.method === "notifications/tasks/status");
    expect(statuses.map((n) => n.params.status)).toEqual(["input_required", "working", "completed"]);
  });

  it("@task deferred: a task from the start when asked for one, a plain call otherwise; becomeTask() does nothing", async () => {
    const c = await connect("legacy");
    const { task } = await c.request("tools/call", { name: "greet_later", arguments: {}, task: {} });
    expect(task).toMatchObject({ status: "working" });
    const result = await c.request("tasks/result", { taskId: task.taskId });
    expect(result.structuredContent).toEqual({ result: "Hello, Ada and Ada!" });
    const plain = await c.client.callTool({ name: "greet_later", arguments: {} });
    expect(plain.structuredContent).toEqual({ result: "Hello, Ada and Ada!" });
  });

  it("lists tasks a page at a time and forgets them past their ttl", async () => {
    let now = Date.parse("2026-01-01T00:00:00Z");
    const store = memoryTaskStore({ pageSize: 2, now: () => now });
    const c = await connect("legacy", { tasks: { store } });
    const ids: string[] = [];
    for (const ttl of [1000, 5000, 5000]) {
      const { task } = await c.request("tools/call", {
        name: "countdown",
        arguments: { steps: 1 },
        task: { ttl },
      });
      ids.push(task.taskId);
    }
    const first = await c.request("tasks/list", {});
    expect(first.tasks.map((t: { taskId: string }) => t.taskId)).toEqual(ids.slice(0, 2));
    const second = await c.request("tasks/list", { cursor: first.nextCursor });
    expect(second).toEqual({ tasks: [expect.objectContaining({ taskId: ids[2] })] });
    await expect(c.request("tasks/list", { cursor: "nope" })).rejects.toMatchObject({ code: -32602 });
    now += 2000;
    await expect(c.request("tasks/get", { taskId: ids[0] })).rejects.toMatchObject({ code: -32602 });
    expect((await c.request("tasks/list", {})).tasks.map((t: { taskId: string }) => t.taskId)).toEqual(
      ids.slice(1),
    );
  });

  it("keeps the tasks of one connection from another", async () => {
    const store = memoryTaskStore();
    const [a, b] = [
      await connect("legacy", { tasks: { store } }),
      await connect("legacy", { tasks: { store } }),
    ];
    const { task } = await a.request("tools/call", { name: "countdown", arguments: { steps: 1 }, task: {} });
    await expect(b.request("tasks/get", { taskId: task.taskId })).rejects.toMatchObject({ code: -32602 });
    expect((await b.request("tasks/list", {})).tasks).toEqual([]);
  });
});

describe("2026-07-28 tasks extension", () => {
  it("advertises the extension on server/discover and hides the 2025 surface", async () => {
    const c = await connect("modern");
    const capabilities = c.client.getServerCapabilities();
    expect(capabilities?.extensions).toEqual({ [TASKS]: {} });
    expect(capabilities?.tasks).toBeUndefined();
    await expect(c.request("tasks/list", {})).rejects.toMatchObject({ code: -32601 });
    await expect(c.request("tasks/result", { taskId: "x" })).rejects.toMatchObject({ code: -32601 });
  });

  it("creates a task for a task tool and inlines its result in tasks/get", async () => {
    const c = await connect("modern");
    const created = await c.request("tools/call", { name: "countdown", arguments: { steps: 2 } });
    expect(created).toMatchObject({
      resultType: "task",
      status: "working",
      ttlMs: 3_600_000,
      pollIntervalMs: 10,
    });
    expect(created).not.toHaveProperty("task");
    expect(created).not.toHaveProperty("requestState");
    let task = await c.request("tasks/get", { taskId: created.taskId });
    while (task.status === "working") task = await c.request("tasks/get", { taskId: created.taskId });
    expect(task).toMatchObject({
      resultType: "complete",
      taskId: created.taskId,
      status: "completed",
      statusMessage: "step 2 of 2",
      result: {
        content: [{ type: "text", text: "done after 2 steps" }],
        structuredContent: "done after 2 steps",
      },
    });
    const sync = await c.request("tools/call", { name: "add", arguments: { a: 1, b: 2 }, task: { ttl: 1 } });
    expect(sync).toMatchObject({ resultType: "complete", structuredContent: 3 });
  });

  it("asks for input through the task status and tasks/update", async () => {
    const c = await connect("modern");
    const created = await c.request("tools/call", { name: "ask_name", arguments: {} });
    let task = await c.request("tasks/get", { taskId: created.taskId });
    while (task.status === "working") task = await c.request("tasks/get", { taskId: created.taskId });
    expect(task).toMatchObject({
      status: "input_required",
      inputRequests: {
        user_name: { method: "elicitation/create", params: { message: "What is your name?" } },
      },
    });
    const ack = await c.request("tasks/update", {
      taskId: created.taskId,
      inputResponses: { user_name: { action: "accept", content: { name: "Grace" } } },
    });
    expect(ack).toMatchObject({ resultType: "complete" });
    while (task.status !== "completed") task = await c.request("tasks/get", { taskId: created.taskId });
    expect(task.result.structuredContent).toBe("Hello, Grace!");
  });

  it("@task deferred: input_required rounds as a plain call, then the task from ctx.becomeTask()", async () => {
    const c = await connect("modern");
    const round1 = await c.request("tools/call", { name: "greet_later", arguments: {} });
    expect(round1).toMatchObject({
      resultType: "input_required",
      inputRequests: {
        user_name: { method: "elicitation/create", params: { message: "What is your name?" } },
      },
    });
    expect(round1).not.toHaveProperty("taskId");
    const round2 = await c.request("tools/call", {
      name: "greet_later",
      arguments: {},
      inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
      requestState: round1.requestState,
    });
    expect(round2).toMatchObject({ resultType: "task", status: "working", pollIntervalMs: 10 });
    expect(round2).not.toHaveProperty("requestState");
    expect(round2).not.toHaveProperty("inputRequests");
    const { taskId } = round2;
    let task = await c.request("tasks/get", { taskId });
    while (task.status === "working") task = await c.request("tasks/get", { taskId });
    expect(task).toMatchObject({
      status: "input_required",
      inputRequests: { other: { method: "elicitation/create", params: { message: "Whom else to greet?" } } },
    });
    await c.request("tasks/update", {
      taskId,
      inputResponses: { other: { action: "accept", content: { name: "Bob" } } },
    });
    while (task.status !== "completed") task = await c.request("tasks/get", { taskId });
    expect(task.result.structuredContent).toBe("Hello, Alice and Bob!");
    // The old requestState is gone with the round it answered.
    await expect(
      c.request("tools/call", { name: "greet_later", arguments: {}, requestState: round1.requestState }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("@task deferred without the extension: every question an input_required round, no task", async () => {
    const c = await connect("modern", { tasksExtension: false });
    const round1 = await c.request("tools/call", { name: "greet_later", arguments: {} });
    expect(Object.keys(round1.inputRequests)).toEqual(["user_name"]);
    const round2 = await c.request("tools/call", {
      name: "greet_later",
      arguments: {},
      inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
      requestState: round1.requestState,
    });
    expect(round2).toMatchObject({ resultType: "input_required" });
    expect(Object.keys(round2.inputRequests)).toEqual(["other"]);
    const round3 = await c.request("tools/call", {
      name: "greet_later",
      arguments: {},
      inputResponses: { other: { action: "accept", content: { name: "Bob" } } },
      requestState: round2.requestState,
    });
    expect(round3).toMatchObject({ resultType: "complete", structuredContent: "Hello, Alice and Bob!" });
  });

  it("cancels a task: tasks/cancel acks, the signal is aborted, tasks/get says cancelled", async () => {
    const c = await connect("modern");
    const created = await c.request("tools/call", { name: "wait_for_cancel", arguments: {} });
    const ack = await c.request("tasks/cancel", { taskId: created.taskId });
    expect(ack).toMatchObject({ resultType: "complete" });
    expect(ack).not.toHaveProperty("taskId");
    expect(await c.request("tasks/get", { taskId: created.taskId })).toMatchObject({ status: "cancelled" });
    expect(cancellations).toEqual(["The task was cancelled by the client (tasks/cancel)."]);
    expect(await c.request("tasks/cancel", { taskId: created.taskId })).toMatchObject({
      resultType: "complete",
    });
    await expect(c.request("tasks/get", { taskId: "unknown" })).rejects.toMatchObject({ code: -32602 });
  });

  it("without the extension: optional tools run normally, required ones and tasks/* fail with -32021", async () => {
    const c = await connect("modern", { tasksExtension: false });
    const plain = await c.request("tools/call", { name: "countdown", arguments: { steps: 1 } });
    expect(plain).toMatchObject({ resultType: "complete", structuredContent: "done after 1 steps" });
    await expect(c.request("tools/call", { name: "wait_for_cancel", arguments: {} })).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    await expect(c.request("tasks/get", { taskId: "x" })).rejects.toMatchObject({ code: -32021 });
  });
});
