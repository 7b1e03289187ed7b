import { type RunningServer, serve } from "@mcp-gen/runtime/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryState } from "../../src/state/index.ts";
import { cancellations } from "../server/fixtures/tasks/tools.ts";
import { type BuiltTasks, buildTasks } from "../server/support/tasks.ts";
import { call as callReplica, untilTask, until as untilValue } from "./replicas.ts";

/**
 * Two replicas in this process over HTTP sharing one `memoryState()` (the engine-free form of
 * `serve({ state })`): a task's question answered through B reaches the run on A, a cancel
 * through B aborts it on A, and a deferred task's later question goes through the store. The
 * same on Redis and PostgreSQL across processes: packages/codegen/test/serve-state-*.test.ts.
 */
let built: BuiltTasks;
const replicas: RunningServer[] = [];

beforeAll(async () => {
  built = await buildTasks();
  const state = memoryState();
  for (let i = 0; i < 2; i++) {
    replicas.push(
      await serve(built.manifest, { transport: "http", http: { port: 0 }, state, onError: () => {} }),
    );
  }
});
afterAll(async () => {
  for (const replica of replicas) await replica.close();
  built?.dispose();
});

/** A 2026-07-28 request to replica `at`. */
const call = (at: number, method: string, params: Record<string, unknown>, name: string) =>
  callReplica(replicas[at]!.url!, method, params, name);
/** `tasks/get` through replica `at` until `done` holds (bounded polling). */
const until = (at: number, taskId: string, done: (task: Record<string, unknown>) => boolean) =>
  untilTask(replicas[at]!.url!, taskId, done);

describe("replicas sharing memoryState()", () => {
  it("hands an answer sent through B to the question of the run on A", async () => {
    const { taskId } = (await call(0, "tools/call", { name: "ask_name", arguments: {} }, "ask_name")) as {
      taskId: string;
    };
    const asked = await until(1, taskId, (t) => t.status === "input_required");
    expect(asked.inputRequests).toMatchObject({ user_name: { method: "elicitation/create" } });
    const answer = { user_name: { action: "accept", content: { name: "Ada" } } };
    await call(1, "tasks/update", { taskId, inputResponses: answer }, taskId);
    expect(await until(1, taskId, (t) => t.status === "completed")).toMatchObject({
      result: { content: [{ type: "text", text: "Hello, Ada!" }] },
    });
  });

  it("aborts the run on A when the task is cancelled through B", async () => {
    const before = cancellations.length;
    const { taskId } = (await call(
      0,
      "tools/call",
      { name: "wait_for_cancel", arguments: {} },
      "wait_for_cancel",
    )) as { taskId: string };
    await call(1, "tasks/cancel", { taskId }, taskId);
    expect(await until(0, taskId, (t) => t.status !== "working")).toMatchObject({ status: "cancelled" });
    // The run itself stopped: its signal carried the cancel.
    expect(
      await untilValue(
        () => cancellations.slice(before),
        (c) => c.length > 0,
      ),
    ).toStrictEqual(["The task was cancelled by the client (tasks/cancel)."]);
  });

  it("keeps a deferred task's later question in the store, answered through the other replica", async () => {
    const first = await call(0, "tools/call", { name: "greet_later", arguments: {} }, "greet_later");
    expect(first).toMatchObject({ resultType: "input_required" });
    // The plain call's round waits on A (greet_later is not declared safe to run again).
    const retry = {
      name: "greet_later",
      arguments: {},
      inputResponses: { user_name: { action: "accept", content: { name: "Ada" } } },
      requestState: first.requestState,
    };
    const { taskId } = (await call(0, "tools/call", retry, "greet_later")) as { taskId: string };
    const asked = await until(1, taskId, (t) => t.status === "input_required");
    expect(asked.inputRequests).toMatchObject({ other: { method: "elicitation/create" } });
    const answer = { other: { action: "accept", content: { name: "Grace" } } };
    await call(1, "tasks/update", { taskId, inputResponses: answer }, taskId);
    expect(await until(1, taskId, (t) => t.status === "completed")).toMatchObject({
      result: { content: [{ type: "text", text: "Hello, Ada and Grace!" }] },
    });
  });
});
