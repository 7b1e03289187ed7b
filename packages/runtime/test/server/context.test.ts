import { type McpGenServerOptions, serve } from "@mcp-gen/runtime/server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { aborts, Counter, executions, gate, resetProbe } from "./fixtures/probe/tools.ts";
import { type BuiltProbe, buildProbe } from "./support/probe.ts";

let probe: BuiltProbe;
beforeAll(async () => {
  probe = await buildProbe();
});
afterAll(() => probe.dispose());

const open: { close(): Promise<void> }[] = [];
beforeEach(() => resetProbe());
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

/** Methods of every message the client received, in order. */
const received: string[] = [];

async function connect(
  options: McpGenServerOptions = {},
  capabilities: Client["_capabilities"] = {},
): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const manifest = probe.createManifest({ Counter: new Counter(1) });
  open.push(await serve(manifest, { transport: serverSide, onError: () => {}, ...options }));
  const client = new Client({ name: "test", version: "1.0.0" }, { capabilities });
  await client.connect(clientSide);
  const deliver = clientSide.onmessage!;
  received.length = 0;
  clientSide.onmessage = (message, extra) => {
    received.push("method" in message ? message.method : "response");
    deliver(message, extra);
  };
  open.push(client);
  return client;
}

describe("progress", () => {
  it("sends notifications/progress for the caller's progress token", async () => {
    const client = await connect();
    const seen: Progress[] = [];
    let twoSeen!: () => void;
    const two = new Promise<void>((resolve) => {
      twoSeen = resolve;
    });
    const call = client.callTool({ name: "count_steps", arguments: { steps: 3, pause: true } }, undefined, {
      onprogress: (p) => {
        seen.push(p);
        if (seen.length === 2) twoSeen();
      },
    });
    await two; // the tool now waits at its gate: progress arrived while it ran
    expect(executions).toStrictEqual([{ tool: "count_steps", args: [3, true] }]);
    gate("steps").open();
    expect((await call).structuredContent).toStrictEqual({ result: "3 steps" });
    expect(received).toStrictEqual([
      "notifications/progress",
      "notifications/progress",
      "notifications/progress",
      "response",
    ]);
    expect(seen).toStrictEqual([
      { progress: 1, total: 3, message: "step 1" },
      { progress: 2, total: 3, message: "step 2" },
      { progress: 3, total: 3, message: "step 3" },
    ]);
  });

  it("sends nothing without a progress token", async () => {
    const client = await connect();
    await client.callTool({ name: "count_steps", arguments: { steps: 2 } });
    expect(received).toStrictEqual(["response"]);
  });
});

describe("logging", () => {
  async function logsAt(
    level?: "debug" | "warning" | "emergency",
  ): Promise<LoggingMessageNotification["params"][]> {
    const client = await connect();
    const messages: LoggingMessageNotification["params"][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      messages.push(n.params);
    });
    if (level) await client.setLoggingLevel(level);
    await client.callTool({ name: "log_levels", arguments: {} });
    return messages;
  }

  it("sends every message until the client sets a level", async () => {
    expect((await logsAt()).map((m) => m.level)).toStrictEqual(["debug", "info", "warning", "error"]);
  });

  it("honours logging/setLevel", async () => {
    expect(await logsAt("warning")).toStrictEqual([
      { level: "warning", data: "warning message", logger: "probe" },
      { level: "error", data: "error message", logger: "probe" },
    ]);
    expect(await logsAt("emergency")).toStrictEqual([]);
  });
});

describe("cancellation and timeouts", () => {
  it("aborts the tool's signal on notifications/cancelled", async () => {
    const client = await connect();
    const controller = new AbortController();
    const call = client.callTool({ name: "wait_for_cancel", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await gate("waiting").promise;
    controller.abort("user pressed stop");
    await expect(call).rejects.toThrow();
    await gate("aborted").promise;
    expect(aborts).toStrictEqual(["user pressed stop"]);
  });

  it("logs a cancelled call as cancelled (onCall)", async () => {
    const records: { name: string; outcome: string }[] = [];
    const client = await connect({ onCall: (record) => records.push(record) });
    const controller = new AbortController();
    const call = client.callTool({ name: "wait_for_cancel", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await gate("waiting").promise;
    controller.abort("user pressed stop");
    await expect(call).rejects.toThrow();
    await expect.poll(() => records).toMatchObject([{ name: "wait_for_cancel", outcome: "cancelled" }]);
  });

  it("aborts a tool that outlives its timeout and returns isError", async () => {
    const client = await connect({ toolTimeoutsMs: { wait_for_cancel: 5 } });
    const result = await client.callTool({ name: "wait_for_cancel", arguments: {} });
    expect(result).toStrictEqual({
      content: [{ type: "text", text: 'Tool "wait_for_cancel" timed out after 5 ms' }],
      isError: true,
    });
    await gate("aborted").promise;
    expect(String(aborts[0])).toBe('TimeoutError: Tool "wait_for_cancel" timed out after 5 ms');
  });
});

describe("requests to the client", () => {
  it("asks the client's model through sampling", async () => {
    const client = await connect({}, { sampling: {} });
    client.setRequestHandler(CreateMessageRequestSchema, (request) => ({
      role: "assistant",
      model: "test-model",
      content: {
        type: "text",
        text: `echo: ${(request.params.messages[0]!.content as { text: string }).text}`,
      },
    }));
    const result = await client.callTool({ name: "ask", arguments: { question: "why?" } });
    expect(result.structuredContent).toStrictEqual({ result: "echo: why?" });
  });

  it("asks the user through elicitation", async () => {
    const client = await connect({}, { elicitation: {} });
    client.setRequestHandler(ElicitRequestSchema, (request) => ({
      action: "accept",
      content: { name: `Ada (${request.params.message})` },
    }));
    const result = await client.callTool({ name: "ask_name", arguments: { message: "who?" } });
    expect(result.structuredContent).toStrictEqual({ result: "Ada (who?)" });
  });

  it("asks for a form, a completion and the client's roots at once (server-to-client requests)", async () => {
    const client = await connect({}, { elicitation: {}, sampling: {}, roots: {} });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { name: "Ada" } }));
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: "assistant",
      model: "test-model",
      content: { type: "text", text: "hello" },
    }));
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: "file:///work" }] }));
    const result = await client.callTool({ name: "ask_all", arguments: {} });
    expect(result.structuredContent).toStrictEqual({ result: "Ada | hello | file:///work" });
  });

  it("fails with a clear message when the client cannot sample or elicit", async () => {
    const client = await connect();
    expect(await client.callTool({ name: "ask", arguments: { question: "q" } })).toStrictEqual({
      content: [{ type: "text", text: 'Tool "ask" needs sampling, which the client does not support.' }],
      isError: true,
    });
    expect(await client.callTool({ name: "ask_name", arguments: { message: "m" } })).toStrictEqual({
      content: [
        { type: "text", text: 'Tool "ask_name" needs elicitation, which the client does not support.' },
      ],
      isError: true,
    });
  });
});
