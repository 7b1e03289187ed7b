import { type McpGenServerOptions, serve } from "@mcp-gen/runtime/server";
import { Client, InMemoryTransport, ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Counter, executions, resetProbe } from "./fixtures/probe/tools.ts";
import { type BuiltProbe, buildProbe, listedTools } from "./support/probe.ts";

// What a 2026-07-28 client sees that a 2025 one never does: input through `input_required`
// rounds (the tool's execution waits in between), cacheable lists, unwrapped results.

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

const SERVER_INFO = { "io.modelcontextprotocol/serverInfo": { name: "probe", version: "0.0.0" } };

/** An SDK v2 client pinned to 2026-07-28, in memory, answering input requests itself (`manual`) or through its handlers. */
async function connect(
  options: McpGenServerOptions & { manual?: boolean; elicitation?: boolean; sampling?: boolean } = {},
): Promise<Client> {
  const { manual, elicitation = true, sampling = false, ...serverOptions } = options;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const manifest = probe.createManifest({ Counter: new Counter(1) });
  open.push(await serve(manifest, { transport: serverSide as never, onError: () => {}, ...serverOptions }));
  const client = new Client(
    { name: "modern-test", version: "2.0.0" },
    {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      capabilities: {
        ...(elicitation ? { elicitation: { form: {} } } : {}),
        ...(sampling ? { sampling: {}, roots: {} } : {}),
      },
      ...(manual ? { inputRequired: { autoFulfill: false } } : {}),
    },
  );
  if (elicitation) {
    client.setRequestHandler("elicitation/create", (request) => ({
      action: "accept",
      content: { name: `Ada, asked "${request.params.message}"` },
    }));
  }
  if (sampling) {
    client.setRequestHandler("sampling/createMessage", (request) => ({
      role: "assistant",
      model: "test-model",
      content: { type: "text", text: `echo: ${JSON.stringify(request.params.messages[0]?.content)}` },
    }));
  }
  await client.connect(clientSide);
  open.push(client);
  expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  return client;
}

/** A `tools/call` with the 2026-07-28 retry fields (`inputResponses`, `requestState`) the SDK's params type leaves out. */
function retry(client: Client, params: Record<string, unknown>, options?: { allowInputRequired?: boolean }) {
  return client.callTool(params as Parameters<Client["callTool"]>[0], options);
}

/** The first round of `ask_name` in manual mode: the questions and the state to send back. */
async function firstRound(client: Client, message = "who?") {
  return (await client.callTool(
    { name: "ask_name", arguments: { message } },
    { allowInputRequired: true },
  )) as unknown as { resultType: string; inputRequests: Record<string, unknown>; requestState: string };
}

describe("input_required (ctx.elicit on 2026-07-28)", () => {
  it("answers input_required, then resumes the same execution with the client's answer", async () => {
    const client = await connect({ manual: true });
    const round = await firstRound(client);
    expect(round).toStrictEqual({
      _meta: SERVER_INFO,
      resultType: "input_required",
      inputRequests: {
        "elicit-1": {
          method: "elicitation/create",
          params: {
            mode: "form",
            message: "who?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
          },
        },
      },
      requestState: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const result = await retry(client, {
      name: "ask_name",
      arguments: { message: "who?" },
      inputResponses: { "elicit-1": { action: "accept", content: { name: "Grace" } } },
      requestState: round.requestState,
    });
    expect(result.structuredContent).toBe("Grace");
    expect(executions).toStrictEqual([{ tool: "ask_name", args: ["who?"] }]);
  });

  it("is fulfilled by the SDK client's own elicitation handler", async () => {
    const client = await connect();
    const result = await client.callTool({ name: "ask_name", arguments: { message: "name?" } });
    expect(result).toStrictEqual({
      _meta: SERVER_INFO,
      content: [{ type: "text", text: 'Ada, asked "name?"' }],
      structuredContent: 'Ada, asked "name?"',
    });
  });

  it("hands a declined request to the tool", async () => {
    const client = await connect({ manual: true });
    const round = await firstRound(client);
    const result = await retry(client, {
      name: "ask_name",
      arguments: { message: "who?" },
      inputResponses: { "elicit-1": { action: "decline" } },
      requestState: round.requestState,
    });
    expect(result.structuredContent).toBe("decline");
  });

  it("refuses an answer that breaks the requested schema, as the tool's error", async () => {
    const client = await connect({ manual: true });
    const round = await firstRound(client);
    const result = await retry(client, {
      name: "ask_name",
      arguments: { message: "who?" },
      inputResponses: { "elicit-1": { action: "accept", content: { nickname: "G" } } },
      requestState: round.requestState,
    });
    expect(result).toStrictEqual({
      _meta: SERVER_INFO,
      content: [
        { type: "text", text: `The client's answer to "elicit-1" is invalid: missing property "name"` },
      ],
      isError: true,
    });
  });

  it("asks again when the retry leaves the question unanswered", async () => {
    const client = await connect({ manual: true });
    const round = await firstRound(client);
    const again = (await retry(
      client,
      {
        name: "ask_name",
        arguments: { message: "who?" },
        inputResponses: {},
        requestState: round.requestState,
      },
      { allowInputRequired: true },
    )) as unknown as typeof round;
    expect(again.resultType).toBe("input_required");
    expect(Object.keys(again.inputRequests)).toStrictEqual(["elicit-1"]);
    expect(again.requestState).not.toBe(round.requestState);
  });

  it("answers a forged, reused or mismatched requestState with -32602", async () => {
    const client = await connect({ manual: true });
    const answers = { "elicit-1": { action: "accept", content: { name: "G" } } };
    const refused = async (params: Record<string, unknown>) => {
      const error = await retry(client, {
        name: "ask_name",
        arguments: { message: "who?" },
        inputResponses: answers,
        ...params,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect([
        (error as ProtocolError).code,
        (error as ProtocolError).message,
        (error as ProtocolError).data,
      ]).toStrictEqual([
        -32602,
        "Invalid or expired requestState: call the tool again without it",
        { reason: "invalid_request_state" },
      ]);
    };
    await refused({ requestState: "00000000-0000-4000-8000-000000000000" });
    const round = await firstRound(client);
    await refused({ requestState: round.requestState, arguments: { message: "someone else?" } });
    expect(
      (
        await retry(client, {
          name: "ask_name",
          arguments: { message: "who?" },
          inputResponses: answers,
          requestState: round.requestState,
        })
      ).structuredContent,
    ).toBe("G");
    await refused({ requestState: round.requestState });
  });

  it("answers -32021 when the client does not declare the capability the tool needs", async () => {
    const client = await connect({ elicitation: false });
    const error = (await client
      .callTool({ name: "ask_name", arguments: { message: "who?" } })
      .catch((e: unknown) => e)) as ProtocolError;
    expect(error).toBeInstanceOf(ProtocolError);
    expect([error.code, error.data]).toStrictEqual([-32021, { requiredCapabilities: { elicitation: {} } }]);
  });

  it("asks several questions in one round, under the keys the tool chose, roots included", async () => {
    const client = await connect({ manual: true, sampling: true });
    const round = (await retry(
      client,
      { name: "ask_all", arguments: {} },
      { allowInputRequired: true },
    )) as unknown as {
      inputRequests: Record<string, { method: string }>;
      requestState: string;
    };
    expect(Object.entries(round.inputRequests).map(([key, r]) => [key, r.method])).toStrictEqual([
      ["user_name", "elicitation/create"],
      ["sample-1", "sampling/createMessage"],
      ["roots-2", "roots/list"],
    ]);
    const result = await retry(client, {
      name: "ask_all",
      arguments: {},
      requestState: round.requestState,
      inputResponses: {
        user_name: { action: "accept", content: { name: "Ada" } },
        "sample-1": { role: "assistant", model: "m", content: { type: "text", text: "hello" } },
        "roots-2": { roots: [{ uri: "file:///work" }] },
      },
    });
    expect(result.structuredContent).toBe("Ada | hello | file:///work");
    expect(executions).toStrictEqual([{ tool: "ask_all", args: [] }]);
  });

  it("takes answers that come with the first request, without a round", async () => {
    const client = await connect({ manual: true, sampling: true });
    const result = await retry(client, {
      name: "ask_all",
      arguments: {},
      inputResponses: {
        user_name: { action: "accept", content: { name: "Grace" } },
        "sample-1": { role: "assistant", model: "m", content: { type: "text", text: "hi" } },
        "roots-2": { roots: [] },
        unrelated: { anything: true },
      },
    });
    expect(result.structuredContent).toBe("Grace | hi | ");
  });

  it("caps the calls waiting for answers (maxWaitingCalls)", async () => {
    const client = await connect({ manual: true, maxWaitingCalls: 1 });
    expect((await firstRound(client, "first")).resultType).toBe("input_required");
    expect(await client.callTool({ name: "ask_name", arguments: { message: "second" } })).toStrictEqual({
      _meta: SERVER_INFO,
      content: [
        { type: "text", text: "The server has 1 calls waiting for their clients' input; try again later." },
      ],
      isError: true,
    });
  });

  it("samples through input_required (ctx.sample, deprecated by the spec, still served)", async () => {
    const client = await connect({ sampling: true });
    const result = await client.callTool({ name: "ask", arguments: { question: "2+2?" } });
    expect(result.structuredContent).toBe('echo: {"type":"text","text":"2+2?"}');
  });
});

describe("tools/list on 2026-07-28", () => {
  it("lists results as themselves and carries the configured cache hints", async () => {
    const client = await connect({ listCache: { ttlMs: 60_000, scope: "public" } });
    const page = (await client.request({ method: "tools/list", params: {} })) as Record<string, unknown>;
    expect(page.tools).toStrictEqual(listedTools(probe.contract, "modern"));
    expect([page.ttlMs, page.cacheScope]).toStrictEqual([60_000, "public"]);
  });

  it("is not cacheable by default", async () => {
    const client = await connect();
    const page = (await client.request({ method: "tools/list", params: {} })) as Record<string, unknown>;
    expect([page.ttlMs, page.cacheScope]).toStrictEqual([0, "private"]);
  });
});

describe("a tool list that changes (listChanged: true)", () => {
  /** A client of `protocol` in memory to a server whose tools change; resolves each notification. */
  async function watch(protocol: "2026-07-28" | "legacy") {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const full = probe.createManifest({ Counter: new Counter(1) });
    const running = await serve(full, {
      transport: serverSide as never,
      onError: () => {},
      listChanged: true,
    });
    open.push(running);
    const client = new Client(
      { name: "watch", version: "1.0.0" },
      { versionNegotiation: { mode: protocol === "legacy" ? "legacy" : { pin: protocol } } },
    );
    const changes: string[] = [];
    let notified!: () => void;
    const changed = new Promise<void>((resolve) => {
      notified = resolve;
    });
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      changes.push("tools/list_changed");
      notified();
    });
    await client.connect(clientSide);
    open.push(client);
    // 2026-07-28 has no unsolicited notifications: the client listens for them.
    if (protocol !== "legacy") await client.listen({ toolsListChanged: true });
    return { running, client, full, changes, changed };
  }

  it.each([
    "2026-07-28",
    "legacy",
  ] as const)("tells a %s client, which then lists the new tools", async (protocol) => {
    const { running, client, full, changes, changed } = await watch(protocol);
    expect((await client.listTools()).tools.length).toBe(full.tools.length);
    running.update({ ...full, tools: full.tools.filter((t) => t.definition.name === "add") });
    await changed;
    expect(changes).toStrictEqual(["tools/list_changed"]);
    expect(
      (await client.request({ method: "tools/list", params: {} })).tools.map((t) => t.name),
    ).toStrictEqual(["add"]);
    const error = await client
      .callTool({ name: "search", arguments: { query: "x" } })
      .catch((e: unknown) => e);
    expect((error as ProtocolError).code).toBe(-32602);
  });

  it("refuses update() on a server not served with listChanged", async () => {
    const [, serverSide] = InMemoryTransport.createLinkedPair();
    const full = probe.createManifest({ Counter: new Counter(1) });
    const running = await serve(full, { transport: serverSide as never, onError: () => {} });
    open.push(running);
    expect(() => running.update(full)).toThrow(
      "mcp-gen: the tools of a server can change only when it is served with listChanged: true",
    );
  });
});
