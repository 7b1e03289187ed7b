import { setTimeout as sleep } from "node:timers/promises";
import {
  type HttpOptions,
  type McpGenServerOptions,
  type RunningServer,
  serve,
} from "@mcp-gen/runtime/server";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { catalogManifest } from "./fixtures/catalog/manifest.ts";
import { type Era, exercise } from "./support/catalog.ts";
import { modernEnvelope } from "./support/envelope.ts";

// Resources, prompts and completions over Streamable HTTP on 127.0.0.1: 2025 sessions, the
// stateless 2025 mode, and 2026-07-28 requests (a server per request).

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
});

async function start(http: HttpOptions = {}, options: McpGenServerOptions = {}): Promise<RunningServer> {
  const server = await serve(catalogManifest(), {
    transport: "http",
    http: { port: 0, ...http },
    onError: () => {},
    ...options,
  });
  running.push(server);
  return server;
}

async function connect(url: string, era: Era): Promise<Client> {
  const client = new Client(
    { name: "catalog-http", version: "1.0.0" },
    { versionNegotiation: { mode: era === "legacy" ? "legacy" : { pin: era } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  running.push(client);
  return client;
}

describe("resources, prompts and completions over Streamable HTTP", () => {
  it.each(["2026-07-28", "legacy"] as const)("serves a %s SDK v2 client (sessions for 2025)", async (era) => {
    const server = await start();
    await exercise(await connect(server.url!, era));
  });

  it("serves the SDK v1 client", async () => {
    const server = await start();
    const client = new ClientV1({ name: "v1", version: "1" });
    await client.connect(new StreamableHTTPClientTransportV1(new URL(server.url!)));
    running.push(client);
    await exercise(client as never);
  });

  it("serves a 2025 client statelessly (--stateless)", async () => {
    const server = await start({ stateless: true });
    await exercise(await connect(server.url!, "legacy"));
  });

  it("answers prompts/get with input_required for a 2026-07-28 client, and resumes on the retry", async () => {
    const server = await start();
    const client = new Client(
      { name: "catalog-http", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler("elicitation/create", () => ({
      action: "accept",
      content: { context: "over HTTP" },
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url!)));
    running.push(client);
    expect((await client.getPrompt({ name: "test_input_required_result_prompt" })).messages).toStrictEqual([
      { role: "user", content: { type: "text", text: "Use this context: over HTTP" } },
    ]);
  });
});

describe("resource updates over Streamable HTTP", () => {
  it("reach 2026-07-28 clients listening for the URI (subscriptions/listen), from the server and from tools", async () => {
    const server = await start();
    const client = await connect(server.url!, "2026-07-28");
    const seen: string[] = [];
    let arrived!: () => void;
    let wanted = 1;
    const waitFor = (count: number) =>
      new Promise<void>((resolve) => {
        wanted = count;
        arrived = resolve;
        if (seen.length >= count) resolve();
      });
    client.setNotificationHandler("notifications/resources/updated", (n) => {
      seen.push(n.params.uri);
      if (seen.length >= wanted) arrived();
    });
    const subscription = await client.listen({ resourceSubscriptions: ["test://static-text"] });
    running.push(subscription);
    server.notifyResourceUpdated("test://settings"); // not listened for
    server.notifyResourceUpdated("test://static-text");
    await waitFor(1);
    await client.callTool({ name: "touch", arguments: { uri: "test://static-text" } });
    await waitFor(2);
    expect(seen).toStrictEqual(["test://static-text", "test://static-text"]);
  });

  it("reach a 2025 session that subscribed (on its GET stream)", async () => {
    const server = await start();
    const client = await connect(server.url!, "legacy");
    let updated!: (uri: string) => void;
    const arrived = new Promise<string>((resolve) => {
      updated = resolve;
    });
    client.setNotificationHandler("notifications/resources/updated", (n) => updated(n.params.uri));
    await client.subscribeResource({ uri: "test://static-text" });
    // The client opens its GET stream on its own after initializing; until it is open a
    // notification has nowhere to go, so this repeats until one arrives (the outcome, not the
    // timing, is what the test checks).
    let uri: string | undefined;
    for (let attempt = 0; attempt < 100 && uri === undefined; attempt++) {
      server.notifyResourceUpdated("test://static-text");
      uri = await Promise.race([arrived, sleep(50).then(() => undefined)]);
    }
    expect(uri).toBe("test://static-text");
  });

  it("announce changed resource and prompt lists to 2026-07-28 listeners on update()", async () => {
    const server = await start({}, { listChanged: true });
    const client = await connect(server.url!, "2026-07-28");
    let notified!: (method: string) => void;
    const changed = new Promise<string>((resolve) => {
      notified = resolve;
    });
    client.setNotificationHandler("notifications/prompts/list_changed", () => notified("prompts"));
    const subscription = await client.listen({ promptsListChanged: true });
    running.push(subscription);
    server.update(catalogManifest({ prompts: catalogManifest().prompts!.slice(0, 1) }));
    expect(await changed).toBe("prompts");
    expect(
      (await client.request({ method: "prompts/list", params: {} })).prompts.map((p) => p.name),
    ).toStrictEqual(["test_simple_prompt"]);
  });
});

describe("2026-07-28 routing of the new methods", () => {
  /** A raw 2026-07-28 POST of `method`: status and body. */
  async function post(url: string, method: string, params: object = {}) {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 9,
        method,
        params: {
          ...params,
          _meta: modernEnvelope(),
        },
      }),
    });
    return [response.status, await response.json()];
  }

  it("answers resources/subscribe and unsubscribe, which the revision removed, with 404", async () => {
    const server = await start();
    for (const method of ["resources/subscribe", "resources/unsubscribe"]) {
      expect(await post(server.url!, method, { uri: "test://static-text" })).toStrictEqual([
        404,
        { jsonrpc: "2.0", id: 9, error: { code: -32601, message: `Method not found: ${method}` } },
      ]);
    }
  });

  it("routes the manifest's methods to the server, and only those", async () => {
    const server = await start();
    const [status, body] = (await post(server.url!, "resources/templates/list")) as [
      number,
      { result: object },
    ];
    expect([status, Object.keys(body.result).sort()]).toStrictEqual([
      200,
      ["_meta", "cacheScope", "resourceTemplates", "resultType", "ttlMs"],
    ]);
    const bare = await serve(catalogManifest({ resources: [], resourceTemplates: [], prompts: [] }), {
      transport: "http",
      http: { port: 0 },
      onError: () => {},
    });
    running.push(bare);
    for (const method of ["resources/list", "resources/read", "prompts/get", "completion/complete"]) {
      expect(await post(bare.url!, method)).toStrictEqual([
        404,
        { jsonrpc: "2.0", id: 9, error: { code: -32601, message: `Method not found: ${method}` } },
      ]);
    }
  });
});
