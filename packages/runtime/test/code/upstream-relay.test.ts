import { serve } from "@mcp-gen/runtime/server";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { fromJsonSchema, McpServer, Server, UrlElicitationRequiredError } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import ts from "typescript-5";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { manifest as conformance } from "../../../../generated/conformance/server.ts";
import { connectInMemory } from "../../src/client/index.ts";
import { codeMode, RELAY_CAPABILITIES, relayUpstream, withCodeTool } from "../../src/code/index.ts";
import { createServer } from "../../src/server/index.ts";
import { cancellations } from "../server/fixtures/tasks/tools.ts";
import { type BuiltTasks, buildTasks } from "../server/support/tasks.ts";

/**
 * `relayUpstream` in one process: a 2025 upstream (the SDK v2 `McpServer` connected by hand
 * speaks 2025 only) whose requests name no call. Two served code tools share its connection, as
 * two `serve()`s of one process may: each program's question goes to its own client, and while
 * programs of both are in flight a question is refused rather than guessed. A run without a
 * client refuses too.
 */
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

function upstream(gate: { started: number; onStart?: () => void; release: Promise<void> }): McpServer {
  const server = new McpServer({ name: "up", version: "1.0.0" });
  const form = {
    type: "object" as const,
    properties: { name: { type: "string" as const } },
    required: ["name"],
  };
  const empty = fromJsonSchema({ type: "object" });
  server.registerTool(
    "ask",
    { inputSchema: empty, annotations: { readOnlyHint: true } },
    async (_args, ctx) => {
      const answer = await ctx.mcpReq.elicitInput({ message: "Name?", requestedSchema: form });
      return { content: [{ type: "text", text: `hello ${String(answer.content?.name)}` }] };
    },
  );
  // waits until the test releases it, then asks
  server.registerTool(
    "gated_ask",
    { inputSchema: empty, annotations: { readOnlyHint: true } },
    async (_args, ctx) => {
      gate.started++;
      gate.onStart?.();
      await gate.release;
      const answer = await ctx.mcpReq.elicitInput({ message: "Name?", requestedSchema: form });
      return { content: [{ type: "text", text: `hello ${String(answer.content?.name)}` }] };
    },
  );
  return server;
}

async function relayed(
  gate: Parameters<typeof upstream>[0],
  server?: Parameters<typeof connectInMemory>[0],
  era?: "legacy" | "2026-07-28",
) {
  const connection = await connectInMemory(server ?? upstream(gate), {
    // an McpServer connected by hand speaks 2025 only
    protocol: era ?? (server && !(server instanceof McpServer) ? "2026-07-28" : "legacy"),
    clientOptions: { capabilities: RELAY_CAPABILITIES },
  });
  open.push(connection);
  const { tools } = await connection.client.listTools();
  return {
    name: "up",
    client: connection.client,
    tools: tools as never[],
    relay: relayUpstream({ client: connection.client, name: "up" }),
  };
}

/** A served code tool over the upstream, and an SDK client that answers its elicitations with `name`. */
async function program(
  server: Awaited<ReturnType<typeof relayed>>,
  name: string,
  elicitation: { form?: Record<string, never>; url?: Record<string, never> } = { form: {} },
  era?: "legacy",
): Promise<Client> {
  const coded = await withCodeTool({ manifest: conformance, only: true, servers: [server], typescript: ts });
  open.push(coded);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  open.push(await serve(coded.manifest, { transport: serverSide as never, onError: () => {} }));
  const client = new Client(
    { name, version: "1.0.0" },
    {
      capabilities: { elicitation },
      ...(era ? { versionNegotiation: { mode: era } } : {}),
    },
  );
  client.setRequestHandler("elicitation/create", () => ({ action: "accept", content: { name } }));
  await client.connect(clientSide);
  open.push(client);
  return client;
}

const run = async (client: Client, source: string) =>
  (
    (await client.callTool({ name: "run_program", arguments: { program: source } })) as {
      content: { text: string }[];
    }
  ).content[0]!.text.split("\n\n")[0]!;

const CATCH_COUNT = "try { return await up.count(); } catch (e) { return (e as Error).message; }";
const CATCHING = `try { return await up.gated_ask(); } catch (e) { return (e as Error).message; }`;

describe("relayUpstream over a 2025 upstream", () => {
  it("sends each program's question to the client that sent that program", async () => {
    const server = await relayed({ started: 0, release: Promise.resolve() });
    const [ada, bob] = [await program(server, "ada"), await program(server, "bob")];
    expect(JSON.parse(await run(ada, "return await up.ask();"))).toBe("hello ada");
    expect(JSON.parse(await run(bob, "return await up.ask();"))).toBe("hello bob");
  });

  it("refuses a question asked while programs of two clients have calls in flight", async () => {
    let release!: () => void;
    let bothStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      bothStarted = resolve;
    });
    const gate = {
      started: 0,
      onStart: () => gate.started === 2 && bothStarted(),
      release: new Promise<void>((resolve) => {
        release = resolve;
      }),
    };
    const server = await relayed(gate);
    const [ada, bob] = [await program(server, "ada"), await program(server, "bob")];
    const answers = Promise.all([run(ada, CATCHING), run(bob, CATCHING)]);
    await started;
    release();
    const refusal =
      "up.gated_ask failed: up asked for elicitation while calls of 2 programs are in flight; a 2025 server does not say which call asks, so it is refused (a 2026-07-28 server's questions are relayed).";
    expect((await answers).map((a) => JSON.parse(a))).toStrictEqual([refusal, refusal]);
  });

  it("refuses a question of a call from a run that has no client (codeMode without a context)", async () => {
    const server = await relayed({ started: 0, release: Promise.resolve() });
    const code = await codeMode({ servers: [server], typescript: ts });
    open.push(code);
    const result = await code.run(
      "try { return await up.ask(); } catch (e) { return (e as Error).message; }",
    );
    expect(result.ok && result.value).toBe(
      "up.ask failed: up asked for elicitation, and the program that called it has no client to ask.",
    );
  });
});

/** A 2025 upstream that sends the user to a URL: by asking (`elicitation/create`), or by refusing the call (-32042). */
function urlUpstream(): McpServer {
  const server = new McpServer({ name: "up", version: "1.0.0" });
  const empty = fromJsonSchema({ type: "object" });
  const login = { mode: "url" as const, message: "Sign in", url: "https://example.com/login" };
  const readOnly = { inputSchema: empty, annotations: { readOnlyHint: true } };
  server.registerTool("login", readOnly, async (_args, ctx) => {
    const answer = await ctx.mcpReq.elicitInput({ ...login, elicitationId: "e-1" });
    return { content: [{ type: "text", text: `you chose ${answer.action}` }] };
  });
  // asks, then says the user is done (2025 only)
  server.registerTool("login_then_done", readOnly, async () => {
    const answer = await server.server.elicitInput({ ...login, elicitationId: "e-3" });
    await server.server.createElicitationCompletionNotifier("e-3")();
    return { content: [{ type: "text", text: `you chose ${answer.action}` }] };
  });
  server.registerTool("needs_login", readOnly, async () => {
    throw new UrlElicitationRequiredError([{ ...login, elicitationId: "e-2" }]);
  });
  return server;
}

describe("relayUpstream and URL-mode elicitation (2025 upstream)", () => {
  /** A program client declaring `elicitation`, answering URL elicitations with `action`; what it was asked. */
  async function urlClient(
    elicitation: { form?: Record<string, never>; url?: Record<string, never> },
    action: "accept" | "decline",
    era?: "legacy",
  ) {
    const server = await relayed({ started: 0, release: Promise.resolve() }, urlUpstream());
    const client = await program(server, "ada", elicitation, era);
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", (request) => {
      const p = request.params as { mode?: string; url?: string; elicitationId?: string };
      asked.push(`${p.mode} ${p.url} ${p.elicitationId}`);
      return { action };
    });
    return { client, asked };
  }
  const CATCH = (tool: string) =>
    `try { return await up.${tool}(); } catch (e) { return (e as Error).message; }`;

  it("relays the upstream's URL elicitation, with its elicitationId, to a client that declares URL mode", async () => {
    const { client, asked } = await urlClient({ form: {}, url: {} }, "accept");
    expect(JSON.parse(await run(client, CATCH("login")))).toBe("you chose accept");
    expect(asked).toStrictEqual(["url https://example.com/login e-1"]);
  });

  it("shows the URLs of a URLElicitationRequiredError (-32042) and tells the program to call again", async () => {
    const { client, asked } = await urlClient({ form: {}, url: {} }, "accept");
    expect(JSON.parse(await run(client, CATCH("needs_login")))).toBe(
      "up.needs_login failed: up.needs_login needs the user to open a URL first: Sign in (https://example.com/login). The user agreed to open it; call up.needs_login again once they are done.",
    );
    expect(asked).toStrictEqual(["url https://example.com/login e-2"]);
    const declined = await urlClient({ form: {}, url: {} }, "decline");
    expect(JSON.parse(await run(declined.client, CATCH("needs_login")))).toBe(
      "up.needs_login failed: up.needs_login needs the user to open a URL first: Sign in (https://example.com/login). The user chose decline.",
    );
  });

  it("passes the upstream's notifications/elicitation/complete on to the 2025 client it sent the URL to", async () => {
    const { client, asked } = await urlClient({ form: {}, url: {} }, "accept", "legacy");
    const completed = new Promise<string>((resolve) =>
      client.setNotificationHandler("notifications/elicitation/complete", (n) =>
        resolve(n.params.elicitationId),
      ),
    );
    expect(JSON.parse(await run(client, CATCH("login_then_done")))).toBe("you chose accept");
    expect(asked).toStrictEqual(["url https://example.com/login e-3"]);
    expect(await completed).toBe("e-3");
  });

  it("refuses both to a client without URL mode, naming the URL, and asks it nothing", async () => {
    const { client, asked } = await urlClient({ form: {} }, "accept");
    expect(JSON.parse(await run(client, CATCH("login")))).toBe(
      "up.login failed: up.login asked the user to open https://example.com/login (URL-mode elicitation), which the client that sent the program does not support; it was refused.",
    );
    expect(JSON.parse(await run(client, CATCH("needs_login")))).toBe(
      "up.needs_login failed: up.needs_login needs the user to open a URL first: Sign in (https://example.com/login). The client that sent the program does not support URL-mode elicitation, so it was not shown.",
    );
    expect(asked).toStrictEqual([]);
  });
});

describe("relayUpstream over a 2026-07-28 upstream", () => {
  it("answers its input_required rounds through the program's client (a tool with an output schema)", async () => {
    // mcp-gen's own conformance server in memory, spoken to in 2026-07-28: its tools declare output schemas
    const server = await relayed(
      { started: 0, release: Promise.resolve() },
      createServer(conformance, { onError: () => {} }),
    );
    expect(server.client.getProtocolEra()).toBe("modern");
    const ada = await program(server, "ada");
    // (the tool is not read-only: the program's call asks permission first, through the same client)
    const answer = (message: string): Record<string, string | boolean> =>
      message.startsWith("A program wants to call")
        ? { allow: true }
        : { username: "ada", email: `${message}@example.com` };
    ada.setRequestHandler("elicitation/create", (request) => ({
      action: "accept",
      content: answer(request.params.message),
    }));
    const text = await run(ada, 'return await up.test_elicitation({ message: "who" });');
    expect(text).toBe(
      JSON.stringify('User response: action=accept, content={"username":"ada","email":"who@example.com"}'),
    );
  });

  it("refuses a structured result that breaks the listed output schema, as client.callTool would", async () => {
    // a low-level SDK server (no output check of its own), served in 2026-07-28 in memory
    const lying = () => {
      const server = new Server({ name: "lying", version: "1.0.0" }, { capabilities: { tools: {} } });
      server.setRequestHandler("tools/list", () => ({
        tools: [
          {
            name: "count",
            inputSchema: { type: "object" },
            outputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
            annotations: { readOnlyHint: true },
          },
        ],
      }));
      server.setRequestHandler("tools/call", () => ({
        content: [{ type: "text", text: "many" }],
        structuredContent: { n: "many" },
      }));
      return server;
    };
    const server = await relayed(
      { started: 0, release: Promise.resolve() },
      { connect: async (transport) => void serveStdio(lying, { transport }) },
    );
    expect(server.client.getProtocolEra()).toBe("modern");
    const ada = await program(server, "ada");
    expect(JSON.parse(await run(ada, CATCH_COUNT))).toMatch(
      /^up\.count failed: Structured content does not match the tool's output schema: .*n/,
    );
  });
});

describe.each([
  "legacy",
  "2026-07-28",
] as const)("relayUpstream and a tool that runs only as a task (%s upstream)", (era) => {
  let built: BuiltTasks;
  beforeAll(async () => {
    built = await buildTasks();
  });
  afterAll(() => built.dispose());
  afterEach(() => {
    delete (cancellations as { push?: unknown }).push;
    cancellations.length = 0;
  });

  /** mcp-gen's task fixture server in memory, with `countdown` and `ask_name` task-only too. */
  async function taskServer() {
    const manifest = {
      ...built.manifest,
      tools: built.manifest.tools.map((tool) =>
        tool.definition.name === "countdown" || tool.definition.name === "ask_name"
          ? { ...tool, definition: { ...tool.definition, execution: { taskSupport: "required" as const } } }
          : tool,
      ),
    };
    const server = await relayed(
      { started: 0, release: Promise.resolve() },
      createServer(manifest, { onError: () => {}, tasks: { pollIntervalMs: 10 } }),
      era,
    );
    expect(server.client.getProtocolEra()).toBe(era === "legacy" ? "legacy" : "modern");
    // what the relay sends the upstream
    const sent: string[] = [];
    const transport = server.client.transport!;
    const send = transport.send.bind(transport);
    let polled!: () => void;
    const firstPoll = new Promise<void>((resolve) => {
      polled = resolve;
    });
    transport.send = (message, options) => {
      const method = (message as { method?: string }).method;
      if (method?.startsWith("tasks/") || method === "tools/call") sent.push(method);
      if (method === "tasks/get" || method === "tasks/result") polled();
      return send(message, options);
    };
    return { server, sent, firstPoll };
  }

  /** A program client that allows the fixture's calls (its tools are not read-only: each asks first). */
  async function allowing(server: Awaited<ReturnType<typeof relayed>>) {
    const client = await program(server, "ada");
    client.setRequestHandler("elicitation/create", (request) => ({
      action: "accept",
      content: (request.params.message === "What is your name?"
        ? { name: "ada" }
        : { allow: true }) as Record<string, string | boolean>,
    }));
    return client;
  }

  it("follows the task the upstream answers with to its result", async () => {
    const { server, sent } = await taskServer();
    const ada = await allowing(server);
    const out = await run(ada, "return await up.countdown({ steps: 2 });");
    expect(JSON.parse(out)).toBe("done after 2 steps");
    if (era === "legacy") {
      // listed as task-only: called as a task at once, its result awaited
      expect(sent).toStrictEqual(["tools/call", "tasks/result"]);
    } else {
      // a plain call first (refused: task only), then the call as a task, polled to its end
      expect(sent.slice(0, 2)).toStrictEqual(["tools/call", "tools/call"]);
      expect(sent.slice(2).every((m) => m === "tasks/get")).toBe(true);
      expect(sent.length).toBeGreaterThan(2);
    }
  });

  it("answers what the task asks through the program's client", async () => {
    const { server, sent } = await taskServer();
    const ada = await allowing(server);
    expect(JSON.parse(await run(ada, "return await up.ask_name();"))).toBe("Hello, ada!");
    // 2025: the question is a request of its own, on the waiting tasks/result
    if (era !== "legacy") expect(sent).toContain("tasks/update");
  });

  it("cancels the task when the program's run is cancelled", async () => {
    const { server, sent, firstPoll } = await taskServer();
    const cancelled = new Promise<string>((resolve) => {
      cancellations.push = (...items: string[]) => {
        resolve(items[0]!);
        return Array.prototype.push.apply(cancellations, items);
      };
    });
    const ada = await allowing(server);
    const abort = new AbortController();
    const running = ada.callTool(
      { name: "run_program", arguments: { program: "return await up.wait_for_cancel();" } },
      { signal: abort.signal },
    );
    await firstPoll;
    abort.abort();
    await expect(running).rejects.toThrow();
    // the upstream tool saw its task cancelled by the relay
    expect(await cancelled).toBe("The task was cancelled by the client (tasks/cancel).");
    expect(sent).toContain("tasks/cancel");
  });
});
