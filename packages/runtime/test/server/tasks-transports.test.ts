import path from "node:path";
import { type Connection, connectHttp, connectStdio, TaskError, tapTransport } from "@mcp-gen/runtime/client";
import { type RunningServer, serve } from "@mcp-gen/runtime/server";
import { memoryTaskStore } from "@mcp-gen/runtime/server/tasks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type BuiltTasks, buildTasks } from "./support/tasks.ts";

// The generated typed client runs `@task` tools as MCP tasks (`client.<tool>.task()`) against
// `mcp-gen serve` in a child process (stdio) and a server on 127.0.0.1 (Streamable HTTP), in
// both protocol eras: create → progress → result, cancel, required without a task.

const BIN = path.join(import.meta.dirname, "../../../codegen/bin/mcp-gen.js");

let built: BuiltTasks;
let http: RunningServer;
beforeAll(async () => {
  built = await buildTasks();
  http = await serve(built.manifest, {
    transport: "http",
    http: { port: 0 },
    onError: () => {},
    tasks: { pollIntervalMs: 20 },
  });
});
afterAll(async () => {
  await http?.close();
  built.dispose();
});

const open: Connection[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

type Transport = "stdio" | "http";
type Era = "legacy" | "modern";

async function connect(transport: Transport, era: Era): Promise<Connection> {
  const options = {
    protocol: era === "legacy" ? ("legacy" as const) : ("2026-07-28" as const),
    clientOptions: { capabilities: { elicitation: { form: {} } } },
  };
  const connection =
    transport === "stdio"
      ? await connectStdio(
          {
            command: process.execPath,
            args: [BIN, "serve", "tasks", "--config", built.configFile],
            stderr: "pipe",
          },
          options,
        )
      : await connectHttp(http.url!, options);
  open.push(connection);
  expect(connection.era).toBe(era);
  connection.client.setRequestHandler("elicitation/create", () => ({
    action: "accept",
    content: { name: "Grace" },
  }));
  return connection;
}

const cases: [Transport, Era][] = [
  ["stdio", "legacy"],
  ["stdio", "modern"],
  ["http", "legacy"],
  ["http", "modern"],
];

describe.each(cases)("typed task client over %s, %s era", (transport, era) => {
  it("creates a task, follows it and gets its typed result", async () => {
    const { client } = await connect(transport, era);
    const tasks = built.createTasksClient(client);
    const statuses: unknown[] = [];
    tapTransport(client).onNotification((n) => {
      if (n.method === "notifications/tasks/status") statuses.push([n.params?.taskId, n.params?.status]);
      return false;
    });
    const progress: unknown[] = [];
    const task = await tasks.countdown.task({ steps: 3 }, { onprogress: (p: unknown) => progress.push(p) });
    expect(task.created).toMatchObject({ taskId: task.taskId, status: "working" });
    const result = await task.result();
    expect(result).toMatchObject({ ok: true, value: "done after 3 steps" });
    expect(await task.status()).toMatchObject({ status: "completed", statusMessage: "step 3 of 3" });
    if (era === "legacy" && transport === "stdio") {
      // One ordered stream: the progress of the task arrives before the answer to tasks/result.
      expect(progress).toEqual([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i} of 3` })));
      expect(statuses).toEqual([[task.taskId, "completed"]]);
    }
    // Without .task() the same tool runs as a plain call.
    expect(await tasks.countdown({ steps: 1 })).toMatchObject({ ok: true, value: "done after 1 steps" });
  });

  it("cancels a task: its status becomes cancelled and result() throws", async () => {
    const { client } = await connect(transport, era);
    const tasks = built.createTasksClient(client);
    const task = await tasks.waitForCancel.task();
    expect((await task.status()).status).toBe("working");
    await task.cancel();
    expect((await task.status()).status).toBe("cancelled");
    await expect(task.result()).rejects.toBeInstanceOf(TaskError);
    await task.cancel();
  });

  it("refuses a task-only tool called without a task", async () => {
    const { client } = await connect(transport, era);
    const tasks = built.createTasksClient(client);
    await expect(tasks.waitForCancel()).rejects.toMatchObject({ code: era === "legacy" ? -32601 : -32021 });
  });

  it("answers a task's question", async () => {
    const { client } = await connect(transport, era);
    const tasks = built.createTasksClient(client);
    const task = await tasks.askName.task(undefined, {
      onInput: async (requests: Record<string, unknown>) =>
        Object.fromEntries(
          Object.keys(requests).map((key) => [key, { action: "accept", content: { name: "Grace" } }]),
        ),
    });
    expect(await task.result()).toMatchObject({ ok: true, value: "Hello, Grace!" });
  });

  it("answers the rounds of a @task deferred tool, then its task's question", async () => {
    const { client } = await connect(transport, era);
    const tasks = built.createTasksClient(client);
    const asked: string[][] = [];
    const names = ["Alice", "Bob"];
    const task = await tasks.greetLater.task(undefined, {
      onInput: async (requests: Record<string, unknown>) => {
        asked.push(Object.keys(requests));
        const name = names.shift();
        return Object.fromEntries(
          Object.keys(requests).map((key) => [key, { action: "accept", content: { name } }]),
        );
      },
    });
    expect(task.created).toMatchObject({ taskId: task.taskId, status: "working" });
    // A 2025 client's task asks through its connection (the handler answers Grace).
    expect(await task.result()).toMatchObject({
      ok: true,
      value: era === "legacy" ? "Hello, Grace and Grace!" : "Hello, Alice and Bob!",
    });
    expect(asked).toEqual(era === "legacy" ? [] : [["user_name"], ["other"]]);
  });
});

describe("tasks over HTTP with a store of its own", () => {
  let now = Date.parse("2026-01-01T00:00:00Z");
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve(built.manifest, {
      transport: "http",
      http: { port: 0 },
      onError: () => {},
      tasks: { store: memoryTaskStore({ pageSize: 1, now: () => now }), pollIntervalMs: 20 },
    });
  });
  afterAll(() => server.close());

  it("lists a 2025 session's tasks a page at a time and forgets them past their ttl", async () => {
    const connection = await connectHttp(server.url!, { protocol: "legacy" });
    open.push(connection);
    const tasks = built.createTasksClient(connection.client);
    const short = await tasks.countdown.task({ steps: 1 }, { ttlMs: 1000 });
    const long = await tasks.countdown.task({ steps: 1 }, { ttlMs: 60_000 });
    const tap = tapTransport(connection.client);
    const list = async (params: Record<string, unknown>) => {
      const response = await tap.dispatch({ method: "tasks/list", params });
      if (response.kind === "error") throw new Error(response.error.message);
      return response.result as { tasks: { taskId: string }[]; nextCursor?: string };
    };
    const first = await list({});
    expect(first.tasks.map((t) => t.taskId)).toEqual([short.taskId]);
    const second = await list({ cursor: first.nextCursor });
    expect(second).toEqual({ tasks: [expect.objectContaining({ taskId: long.taskId })] });
    now += 2000;
    await expect(short.status()).rejects.toMatchObject({ name: "TaskError", code: -32602 });
    expect((await list({})).tasks.map((t) => t.taskId)).toEqual([long.taskId]);
    expect(await long.result()).toMatchObject({ ok: true, value: "done after 1 steps" });
  });

  it("forgets a 2026-07-28 task past its ttl", async () => {
    const connection = await connectHttp(server.url!, { protocol: "2026-07-28" });
    open.push(connection);
    const tasks = built.createTasksClient(connection.client);
    const task = await tasks.waitForCancel.task();
    expect(task.created.ttlMs).toBe(3_600_000);
    expect((await task.status()).status).toBe("working");
    now += 3_600_000;
    await expect(task.status()).rejects.toMatchObject({ name: "TaskError", code: -32602 });
  });
});
