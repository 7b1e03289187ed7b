import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { expect, it } from "vitest";
import { type BuiltProbe, listedTools } from "./probe.ts";

/**
 * End-to-end behaviour every transport must show, against a probe server in another
 * process (or behind HTTP): `connect` returns a fresh, initialized client.
 */
export function transportSuite(get: () => { probe: BuiltProbe; connect(): Promise<Client> }): void {
  const history = async (client: Client) =>
    (await client.callTool({ name: "history", arguments: {} })).structuredContent as {
      executed: string[];
      aborted: string[];
    };

  it("lists exactly the tools of the contract", async () => {
    const client = await get().connect();
    expect((await client.listTools()).tools).toStrictEqual(listedTools(get().probe.contract));
  });

  it("returns typed structured results for valid calls", async () => {
    const client = await get().connect();
    expect(await client.callTool({ name: "search", arguments: { query: "lamp", limit: 2 } })).toStrictEqual({
      content: [{ type: "text", text: '{"result":[{"id":1,"title":"lamp 1"},{"id":2,"title":"lamp 2"}]}' }],
      structuredContent: {
        result: [
          { id: 1, title: "lamp 1" },
          { id: 2, title: "lamp 2" },
        ],
      },
    });
    expect(
      (await client.callTool({ name: "increment", arguments: { times: 3 } })).structuredContent,
    ).toStrictEqual({
      result: 3,
    });
  });

  it("returns feedback for invalid arguments and never runs the tool", async () => {
    const client = await get().connect();
    expect(
      await client.callTool({ name: "search", arguments: { query: 7, limit: 99, extra: true } }),
    ).toStrictEqual({
      content: [
        {
          type: "text",
          text: [
            'Invalid arguments of tool "search": 3 problems',
            '- /extra: expected no property "extra" (unknown properties are not allowed: remove it), received boolean true',
            "- /query: expected a string, received number 7",
            "- /limit: expected a number <= 50, received number 99",
          ].join("\n"),
        },
      ],
      isError: true,
    });
    expect((await history(client)).executed).toStrictEqual([]);
  });

  it("answers an unknown tool with -32602", async () => {
    const client = await get().connect();
    const error = await client.callTool({ name: "missing", arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect([(error as McpError).code, (error as McpError).message]).toStrictEqual([
      -32602,
      'MCP error -32602: Unknown tool: "missing"',
    ]);
  });

  it("turns thrown errors into isError results", async () => {
    const client = await get().connect();
    expect(await client.callTool({ name: "crash", arguments: { message: "boom" } })).toStrictEqual({
      content: [{ type: "text", text: "boom" }],
      isError: true,
    });
  });

  it("streams progress and honours the log level", async () => {
    const client = await get().connect();
    // Recorded off the transport: the SDK client runs notification handlers a microtask late, so
    // it drops a progress notification that arrives in the same read as the response.
    const progress: unknown[] = [];
    const transport = client.transport!;
    const deliver = transport.onmessage!;
    transport.onmessage = (message, extra) => {
      if ("method" in message && message.method === "notifications/progress") progress.push(message.params);
      deliver(message, extra);
    };
    await client.callTool({ name: "count_steps", arguments: { steps: 2 } }, undefined, {
      onprogress: () => {},
    });
    expect(progress).toStrictEqual([
      { progressToken: 1, progress: 1, total: 2, message: "step 1" },
      { progressToken: 1, progress: 2, total: 2, message: "step 2" },
    ]);
    const logs: LoggingMessageNotification["params"][] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params);
    });
    await client.setLoggingLevel("error");
    await client.callTool({ name: "log_levels", arguments: {} });
    expect(logs).toStrictEqual([{ level: "error", data: "error message", logger: "probe" }]);
  });

  it("aborts a cancelled call and keeps serving", async () => {
    const client = await get().connect();
    const controller = new AbortController();
    let waiting!: () => void;
    const started = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const call = client.callTool({ name: "wait_for_cancel", arguments: {} }, undefined, {
      signal: controller.signal,
      onprogress: () => waiting(),
    });
    await started;
    controller.abort("stop");
    await expect(call).rejects.toThrow();
    expect(await history(client)).toStrictEqual({ executed: ["wait_for_cancel"], aborted: ["stop"] });
  });
}
