import { Client as ClientV2, ProtocolError } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { type BuiltProbe, listedTools } from "./probe.ts";

/**
 * The clients a server meets in the field: the SDK v1 client (2025 protocol only), and the
 * SDK v2 client negotiating the 2025 era (`'legacy'`) or pinned to 2026-07-28.
 */
export const CLIENT_KINDS = ["sdk v1", "sdk v2 legacy", "sdk v2 2026-07-28"] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

/** A connected client of one kind, with the few calls the suite needs in one shape. */
export interface SuiteClient {
  kind: ClientKind;
  era: "legacy" | "modern";
  listTools(): Promise<unknown[]>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> },
    options?: { signal?: AbortSignal; onprogress?: () => void },
  ): Promise<unknown>;
  /** Sets the lowest log level the server sends (2025: `logging/setLevel`; 2026: on each request). */
  setLogLevel(level: string): Promise<void>;
  /** Collects `notifications/message` params. */
  onLog(collect: (params: unknown) => void): void;
  /** Records `notifications/progress` params as they arrive on the transport. */
  recordProgress(): unknown[];
  close(): Promise<void>;
}

/** The transports of one kind of client: v1's or v2's classes, same endpoint. */
export type TransportFor = (sdk: "v1" | "v2") => unknown;

/**
 * Connects a client of `kind` over the transport `transport(sdk)` builds. With `elicit`, the
 * client supports form elicitation and answers every request with `elicit`'s content.
 */
export async function connectClient(
  kind: ClientKind,
  transport: TransportFor,
  elicit?: (message: string) => Record<string, unknown>,
): Promise<SuiteClient> {
  const info = { name: "suite", version: "1.0.0" };
  const capabilities = elicit ? { elicitation: { form: {} } } : {};
  let level: string | undefined;
  const withLevel = <P extends { _meta?: Record<string, unknown> }>(params: P): P =>
    level === undefined
      ? params
      : { ...params, _meta: { ...params._meta, "io.modelcontextprotocol/logLevel": level } };
  const recorder = (transport: { onmessage?: (message: any, extra?: any) => void }) => () => {
    // Recorded off the transport: the SDK client runs notification handlers a microtask late, so
    // it drops a progress notification that arrives in the same read as the response.
    const seen: unknown[] = [];
    const deliver = transport.onmessage!;
    transport.onmessage = (message, extra) => {
      if (message?.method === "notifications/progress") {
        const { progressToken: _, ...rest } = message.params;
        seen.push(rest);
      }
      deliver(message, extra);
    };
    return seen;
  };

  if (kind === "sdk v1") {
    const client = new ClientV1(info, { capabilities });
    if (elicit) {
      client.setRequestHandler(ElicitRequestSchema, (request) => ({
        action: "accept",
        content: elicit(request.params.message) as never,
      }));
    }
    await client.connect(transport("v1") as never);
    return {
      kind,
      era: "legacy",
      listTools: async () => (await client.listTools()).tools,
      callTool: (params, options) => client.callTool(params, undefined, options),
      setLogLevel: async (l) => void (await client.setLoggingLevel(l as never)),
      onLog: (collect) =>
        client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => collect(n.params)),
      recordProgress: recorder(client.transport as never),
      close: () => client.close(),
    };
  }
  const modern = kind === "sdk v2 2026-07-28";
  const client = new ClientV2(info, {
    capabilities,
    versionNegotiation: { mode: modern ? { pin: "2026-07-28" } : "legacy" },
  });
  if (elicit) {
    client.setRequestHandler("elicitation/create", (request) => ({
      action: "accept",
      content: elicit(request.params.message) as never,
    }));
  }
  const wire = transport("v2");
  await client.connect(wire as never);
  expect(client.getProtocolEra()).toBe(modern ? "modern" : "legacy");
  return {
    kind,
    era: modern ? "modern" : "legacy",
    listTools: async () => (await client.listTools()).tools,
    callTool: (params, options) => client.callTool(modern ? withLevel(params) : params, options),
    setLogLevel: async (l) => {
      if (modern) level = l;
      else await client.setLoggingLevel(l as never);
    },
    onLog: (collect) => client.setNotificationHandler("notifications/message", (n) => collect(n.params)),
    recordProgress: recorder(wire as never),
    close: () => client.close(),
  };
}

/** What every result carries on 2026-07-28 (the SDK stamps the server's identity). */
export function stamped(era: "legacy" | "modern", result: Record<string, unknown>): Record<string, unknown> {
  return era === "modern"
    ? { _meta: { "io.modelcontextprotocol/serverInfo": { name: "probe", version: "0.0.0" } }, ...result }
    : result;
}

/**
 * End-to-end behaviour every transport must show, for each kind of client, against a probe
 * server in another process (or behind HTTP): `connect(kind)` returns a fresh, connected client.
 */
export function transportSuite(
  get: () => {
    probe: BuiltProbe;
    connect(kind: ClientKind, elicit?: (message: string) => Record<string, unknown>): Promise<SuiteClient>;
  },
  served: {
    transport: "stdio" | "http";
    /** The 2025 era is served without sessions: no state between requests, no server-to-client requests. */
    statelessLegacy?: boolean;
  },
): void {
  describe.each(CLIENT_KINDS)("with the %s client", (kind) => {
    const connect = (elicit?: (message: string) => Record<string, unknown>) => get().connect(kind, elicit);
    const history = async (client: SuiteClient) =>
      ((await client.callTool({ name: "history", arguments: {} })) as { structuredContent: unknown })
        .structuredContent as { executed: string[]; aborted: string[] };

    it("lists exactly the tools of the contract", async () => {
      const client = await connect();
      expect(await client.listTools()).toStrictEqual(listedTools(get().probe.contract, client.era));
    });

    it("returns typed structured results for valid calls, wrapped for 2025 clients only", async () => {
      const client = await connect();
      const items = [
        { id: 1, title: "lamp 1" },
        { id: 2, title: "lamp 2" },
      ];
      const search = await client.callTool({ name: "search", arguments: { query: "lamp", limit: 2 } });
      expect(search).toStrictEqual(
        client.era === "modern"
          ? stamped("modern", {
              content: [{ type: "text", text: JSON.stringify(items) }],
              structuredContent: items,
            })
          : {
              content: [{ type: "text", text: JSON.stringify({ result: items }) }],
              structuredContent: { result: items },
            },
      );
      const increment = await client.callTool({ name: "increment", arguments: { times: 3 } });
      expect((increment as { structuredContent: unknown }).structuredContent).toStrictEqual(
        client.era === "modern" ? 3 : { result: 3 },
      );
    });

    it("returns feedback for invalid arguments and never runs the tool", async () => {
      const client = await connect();
      expect(
        await client.callTool({ name: "search", arguments: { query: 7, limit: 99, extra: true } }),
      ).toStrictEqual(
        stamped(client.era, {
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
        }),
      );
      expect((await history(client)).executed).toStrictEqual([]);
    });

    it("answers an unknown tool with -32602", async () => {
      const client = await connect();
      const error = (await client.callTool({ name: "missing", arguments: {} }).catch((e: unknown) => e)) as {
        code: number;
        message: string;
      };
      expect(error).toBeInstanceOf(kind === "sdk v1" ? McpError : ProtocolError);
      expect([error.code, error.message]).toStrictEqual([
        -32602,
        kind === "sdk v1" ? 'MCP error -32602: Unknown tool: "missing"' : 'Unknown tool: "missing"',
      ]);
    });

    it("turns thrown errors into isError results", async () => {
      const client = await connect();
      expect(await client.callTool({ name: "crash", arguments: { message: "boom" } })).toStrictEqual(
        stamped(client.era, { content: [{ type: "text", text: "boom" }], isError: true }),
      );
    });

    it("streams progress and honours the log level", async () => {
      const client = await connect();
      const progress = client.recordProgress();
      await client.callTool({ name: "count_steps", arguments: { steps: 2 } }, { onprogress: () => {} });
      expect(progress).toStrictEqual([
        { progress: 1, total: 2, message: "step 1" },
        { progress: 2, total: 2, message: "step 2" },
      ]);
      const logs: unknown[] = [];
      client.onLog((params) => logs.push(params));
      await client.setLogLevel("error");
      await client.callTool({ name: "log_levels", arguments: {} });
      const levels =
        client.era === "legacy" && served.statelessLegacy ? ["debug", "info", "warning", "error"] : ["error"];
      // A stateless 2025 server forgets `logging/setLevel` with the request that set it.
      expect(logs).toStrictEqual(
        levels.map((level) => ({ level, data: `${level} message`, logger: "probe" })),
      );
    });

    it("asks the user through the client and runs the tool once", async () => {
      const client = await connect((message) => ({ name: `Ada (${message})` }));
      const result = await client.callTool({ name: "ask_name", arguments: { message: "who?" } });
      if (client.era === "legacy" && served.statelessLegacy) {
        // Without a session the server cannot send the client a request.
        expect(result).toStrictEqual({
          content: [
            { type: "text", text: 'Tool "ask_name" needs elicitation, which the client does not support.' },
          ],
          isError: true,
        });
        return;
      }
      expect((result as { structuredContent: unknown }).structuredContent).toStrictEqual(
        client.era === "modern" ? "Ada (who?)" : { result: "Ada (who?)" },
      );
      expect((await history(client)).executed).toStrictEqual(["ask_name"]);
    });

    // A stateless 2025 server cannot cancel: `notifications/cancelled` reaches a server of its own.
    it.skipIf(kind !== "sdk v2 2026-07-28" && served.statelessLegacy)(
      "aborts a cancelled call and keeps serving",
      async () => {
        const client = await connect();
        const controller = new AbortController();
        let waiting!: () => void;
        const started = new Promise<void>((resolve) => {
          waiting = resolve;
        });
        const call = client.callTool(
          { name: "wait_for_cancel", arguments: {} },
          { signal: controller.signal, onprogress: () => waiting() },
        );
        await started;
        controller.abort("stop");
        await expect(call).rejects.toThrow();
        // Over HTTP a 2026-07-28 client cancels by closing the request's stream, which carries no reason.
        const reason =
          client.era === "modern" && served.transport === "http"
            ? "Error: cancelled: the client closed the connection of the request"
            : "stop";
        expect(await history(client)).toStrictEqual({ executed: ["wait_for_cancel"], aborted: [reason] });
      },
    );
  });
}
