import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import path from "node:path";
import { type HttpOptions, type RunningServer, serve } from "@mcp-gen/runtime/server";
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Counter, executions, gate, resetProbe } from "./fixtures/probe/tools.ts";
import { modernEnvelope } from "./support/envelope.ts";
import { type BuiltProbe, buildProbe } from "./support/probe.ts";
import {
  type ClientKind,
  connectClient,
  type SuiteClient,
  transportSuite,
} from "./support/transport-suite.ts";

let probe: BuiltProbe;
beforeAll(async () => {
  probe = await buildProbe();
});
afterAll(() => probe.dispose());

const running: { close(): Promise<void> }[] = [];
beforeEach(() => resetProbe());
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.close();
});

async function start(http: HttpOptions = {}): Promise<RunningServer> {
  const server = await serve(probe.createManifest({ Counter: new Counter(1) }), {
    transport: "http",
    http: { port: 0, ...http },
    onError: () => {},
  });
  running.push(server);
  return server;
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "http-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  running.push(client);
  return client;
}

/** A client of `kind` talking to the server at `url`. */
async function connectKind(
  url: string,
  kind: ClientKind,
  elicit?: (message: string) => Record<string, unknown>,
): Promise<SuiteClient> {
  const client = await connectClient(
    kind,
    (sdk) =>
      sdk === "v1"
        ? new StreamableHTTPClientTransport(new URL(url))
        : new StreamableHTTPClientTransportV2(new URL(url)),
    elicit,
  );
  running.push(client);
  return client;
}

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/** A raw POST, the way a browser or a hostile client would send it (node:http may set any Host). */
function post(url: string, body: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string; sessionId: string | null }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => {
          const id = res.headers["mcp-session-id"];
          resolve({ status: res.statusCode!, text, sessionId: typeof id === "string" ? id : null });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("Streamable HTTP with sessions", () => {
  let url: string;
  beforeEach(async () => {
    url = (await start()).url!;
  });
  transportSuite(() => ({ probe, connect: (kind, elicit) => connectKind(url, kind, elicit) }), {
    transport: "http",
  });

  it("binds 127.0.0.1 and gives each session a random id", async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const a = await post(url, JSON.stringify(INIT));
    const b = await post(url, JSON.stringify(INIT));
    expect(a.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.sessionId).not.toBe(b.sessionId);
  });

  it("answers an unknown session with 404 and a request without one with 400", async () => {
    const call = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect((await post(url, call, { "mcp-session-id": "not-a-session" })).status).toBe(404);
    expect((await post(url, call)).status).toBe(400);
  });
});

describe("HTTP security defaults", () => {
  it("rejects foreign Host and Origin headers (DNS rebinding) and accepts localhost ones", async () => {
    const url = (await start()).url!;
    const port = new URL(url).port;
    const evil = await post(url, JSON.stringify(INIT), {
      host: "evil.example.com",
      origin: "http://evil.example.com",
    });
    expect([evil.status, JSON.parse(evil.text)]).toStrictEqual([
      403,
      {
        jsonrpc: "2.0",
        error: { code: -32000, message: 'Forbidden: Host header "evil.example.com" is not allowed' },
        id: null,
      },
    ]);
    const origin = await post(url, JSON.stringify(INIT), { origin: "http://evil.example.com" });
    expect(origin.status).toBe(403);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      const ok = await post(url, JSON.stringify(INIT), { host, origin: `http://${host}` });
      expect([host, ok.status]).toStrictEqual([host, 200]);
    }
  });

  it("requires the bearer token when one is set", async () => {
    const url = (await start({ token: "s3cret" })).url!;
    const missing = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect([missing.status, missing.headers.get("www-authenticate")]).toStrictEqual([
      401,
      'Bearer realm="mcp"',
    ]);
    expect((await post(url, JSON.stringify(INIT), { authorization: "Bearer wrong" })).status).toBe(401);
    const client = await connect(url, { authorization: "Bearer s3cret" });
    expect(
      (await client.callTool({ name: "add", arguments: { a: 1, b: 1 } })).structuredContent,
    ).toStrictEqual({
      result: 2,
    });
  });

  it("limits body size and JSON nesting, and refuses prototype keys", async () => {
    const url = (await start({ maxBodyBytes: 1000, maxJsonDepth: 10 })).url!;
    const large = await post(url, JSON.stringify({ ...INIT, padding: "x".repeat(2000) }));
    expect(large.status).toBe(413);
    const deep = await post(
      url,
      JSON.stringify({ ...INIT, deep: JSON.parse(`${"[".repeat(20)}${"]".repeat(20)}`) }),
    );
    expect([deep.status, JSON.parse(deep.text).error.code]).toStrictEqual([400, -32600]);
    const proto = await post(
      url,
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"__proto__":{"x":1}}}',
    );
    expect(JSON.parse(proto.text).error).toStrictEqual({
      code: -32600,
      message: 'Invalid Request: at /params/__proto__ expected no __proto__ key, received object {"x":1}',
    });
    expect((await post(url, "{not json")).status).toBe(400);
    expect(executions).toStrictEqual([]);
  });

  it("serves only its endpoint", async () => {
    const url = (await start()).url!;
    expect((await fetch(new URL("/other", url), { method: "POST", body: "{}" })).status).toBe(404);
  });
});

describe("stateless Streamable HTTP", () => {
  let url: string;
  beforeEach(async () => {
    url = (await start({ stateless: true })).url!;
  });
  transportSuite(() => ({ probe, connect: (kind, elicit) => connectKind(url, kind, elicit) }), {
    transport: "http",
    statelessLegacy: true,
  });

  it("serves every request with a fresh server and no session", async () => {
    const init = await post(url, JSON.stringify(INIT));
    expect([init.status, init.sessionId]).toStrictEqual([200, null]);
    const client = await connect(url);
    expect(
      (await client.callTool({ name: "add", arguments: { a: 2, b: 2 } })).structuredContent,
    ).toStrictEqual({
      result: 4,
    });
    expect((await client.callTool({ name: "add", arguments: { a: "2" } })).isError).toBe(true);
    expect(executions).toStrictEqual([{ tool: "add", args: [2, 2] }]);
    expect((await fetch(url, { headers: { accept: "text/event-stream" } })).status).toBe(405);
  });
});

describe("mcp-gen serve --http", () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill();
  });

  it("serves the probe from the command line", async () => {
    const bin = path.join(import.meta.dirname, "../../../codegen/bin/mcp-gen.js");
    child = spawn(
      process.execPath,
      [bin, "serve", "probe", "--config", probe.configFile, "--http", "--port", "0"],
      {
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    const url = await new Promise<string>((resolve, reject) => {
      let err = "";
      child!.stderr!.on("data", (chunk: Buffer) => {
        err += chunk;
        const match = /serving probe \(\d+ tools\) on (\S+)/.exec(err);
        if (match) resolve(match[1]!);
      });
      child!.once("exit", () => reject(new Error(`mcp-gen serve exited: ${err}`)));
    });
    const client = await connect(url);
    expect((await client.callTool({ name: "increment", arguments: {} })).structuredContent).toStrictEqual({
      result: 1,
    });
  });
});

describe("Mcp-Param headers of 2026-07-28 calls (x-mcp-header)", () => {
  let url: string;
  beforeEach(async () => {
    url = (await start()).url!;
  });

  /** A pinned 2026-07-28 client whose requests pass through `edit` before they are sent. */
  async function modernClient(edit: (headers: Headers) => void = () => {}, list = true): Promise<ClientV2> {
    const client = new ClientV2(
      { name: "headers", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    const transport = new StreamableHTTPClientTransportV2(new URL(url), {
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        if (headers.get("mcp-method") === "tools/call") edit(headers);
        return fetch(input, { ...init, headers });
      },
    });
    await client.connect(transport);
    running.push(client);
    if (list) await client.listTools(); // the client learns which arguments it mirrors
    return client;
  }

  it("accepts calls whose headers mirror the arguments, Base64-encoded where they are not ASCII", async () => {
    const sent: (string | null)[] = [];
    const client = await modernClient((h) => sent.push(h.get("mcp-param-region"), h.get("mcp-param-shard")));
    expect(
      (await client.callTool({ name: "route", arguments: { region: "eu", shard: 7 } })).structuredContent,
    ).toBe("eu/7");
    expect(
      (await client.callTool({ name: "route", arguments: { region: "Zürich" } })).structuredContent,
    ).toBe("Zürich");
    expect(sent).toStrictEqual(["eu", "7", "=?base64?WsO8cmljaA==?=", null]);
  });

  it("refuses a missing or disagreeing header with HTTP 400 and -32020, and never runs the tool", async () => {
    const cases: [(h: Headers) => void, string][] = [
      [
        (h) => h.delete("mcp-param-region"),
        'header Mcp-Param-Region is missing, but the argument "region" is in the body',
      ],
      [
        (h) => h.set("mcp-param-region", "us"),
        'header Mcp-Param-Region does not match the argument "region" in the body',
      ],
      [
        (h) => h.set("mcp-param-shard", "8"),
        'header Mcp-Param-Shard does not match the argument "shard" in the body',
      ],
      [
        (h) => h.set("mcp-param-region", "=?base64?ZXU?="),
        "header Mcp-Param-Region is not valid =?base64?…?= encoding",
      ],
    ];
    for (const [edit, message] of cases) {
      const client = await modernClient(edit);
      const error = await client
        .callTool({ name: "route", arguments: { region: "eu", shard: 7 } })
        .catch((e: unknown) => e);
      expect([(error as { code?: number }).code, (error as Error).message]).toStrictEqual([
        -32020,
        `Header mismatch: ${message}`,
      ]);
    }
    const equalAsNumbers = await modernClient((h) => h.set("mcp-param-shard", " 7.0 "));
    expect(
      (await equalAsNumbers.callTool({ name: "route", arguments: { region: "eu", shard: 7 } })).isError,
    ).toBeUndefined();
    expect(executions).toStrictEqual([{ tool: "route", args: ["eu", 7] }]);
  });

  it("mirrors them from the generated typed client without listing the tools first", async () => {
    const sent: (string | null)[] = [];
    const client = await modernClient((h) => sent.push(h.get("mcp-param-region")), false);
    const typed = probe.createProbeClient(client);
    expect(await typed.route!({ region: "eu" })).toMatchObject({ ok: true, value: "eu" });
    expect(sent).toStrictEqual(["eu"]);
  });

  it("answers a method the server does not serve with HTTP 404", async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "prompts/list",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 5,
        method: "prompts/list",
        params: {
          _meta: modernEnvelope(),
        },
      }),
    });
    expect([response.status, await response.json()]).toStrictEqual([
      404,
      { jsonrpc: "2.0", id: 5, error: { code: -32601, message: "Method not found: prompts/list" } },
    ]);
  });
});

describe("a tool list that changes, over HTTP", () => {
  it("reaches 2026-07-28 clients that listen (subscriptions/listen)", async () => {
    const full = probe.createManifest({ Counter: new Counter(1) });
    const server = await serve(full, {
      transport: "http",
      http: { port: 0 },
      onError: () => {},
      listChanged: true,
    });
    running.push(server);
    const client = new ClientV2(
      { name: "watch", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    let notified!: () => void;
    const changed = new Promise<void>((resolve) => {
      notified = resolve;
    });
    client.setNotificationHandler("notifications/tools/list_changed", () => notified());
    await client.connect(new StreamableHTTPClientTransportV2(new URL(server.url!)));
    running.push(client);
    const subscription = await client.listen({ toolsListChanged: true });
    running.push(subscription);
    server.update({ ...full, tools: full.tools.filter((t) => t.definition.name === "add") });
    await changed;
    const page = await client.request({ method: "tools/list", params: {} });
    expect(page.tools.map((t) => t.name)).toStrictEqual(["add"]);
  });
});

describe("2025 sessions under abuse", () => {
  /** POSTs `initialize` `count` times, `inFlight` at a time, over kept-alive connections; counts statuses. */
  async function flood(url: string, count: number, inFlight: number): Promise<Record<number, number>> {
    const agent = new Agent({ keepAlive: true, maxSockets: inFlight });
    const statuses: Record<number, number> = {};
    let sent = 0;
    const worker = async () => {
      while (sent < count) {
        sent++;
        const status = await new Promise<number>((resolve, reject) => {
          const req = request(url, {
            method: "POST",
            agent,
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          });
          req.on("response", (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode!));
          });
          req.on("error", reject);
          req.end(JSON.stringify(INIT));
        });
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    agent.destroy();
    return statuses;
  }

  /** A raw POST from the loopback address `from` (another client as far as the server can tell). */
  function postFrom(from: string, url: string, body: unknown, sessionId?: string) {
    return new Promise<{ status: number; sessionId: string | undefined }>((resolve, reject) => {
      const req = request(url, {
        method: "POST",
        localAddress: from,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(sessionId ? { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" } : {}),
        },
      });
      req.on("response", (res) => {
        res.resume();
        const id = res.headers["mcp-session-id"];
        res.on("end", () =>
          resolve({ status: res.statusCode!, sessionId: typeof id === "string" ? id : undefined }),
        );
      });
      req.on("error", reject);
      req.end(JSON.stringify(body));
    });
  }

  // 5,000 is five times the default cap of 1,000 sessions (and fifty times the per-client cap):
  // every request past the first thousand evicts.
  it("survives 5,000 initialize requests from one client: others keep their sessions, a fresh client calls at once", async () => {
    const url = (await start()).url!;
    // Another client (another address) opened its session before the flood.
    const other = await postFrom("127.0.0.2", url, INIT);
    expect(other.status).toBe(200);
    expect(await flood(url, 5_000, 32)).toStrictEqual({ 200: 5_000 });
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    expect((await postFrom("127.0.0.2", url, list, other.sessionId)).status).toBe(200);
    const client = await connect(url);
    expect(
      (await client.callTool({ name: "add", arguments: { a: 1, b: 2 } })).structuredContent,
    ).toStrictEqual({
      result: 3,
    });
  });

  it("counts clients behind a trusted proxy by X-Forwarded-For, and ignores the header from anyone else", async () => {
    /** `initialize` through a "proxy" on 127.0.0.1 for the client `forwarded`, then a call in that session. */
    const open = async (url: string, forwarded: string) => {
      const init = await post(url, JSON.stringify(INIT), { "x-forwarded-for": forwarded });
      return init.sessionId!;
    };
    const alive = async (url: string, sessionId: string) =>
      (
        await post(url, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }), {
          "mcp-session-id": sessionId,
          "mcp-protocol-version": "2025-06-18",
        })
      ).status;
    const behind = (await start({ maxSessionsPerClient: 1, trustProxy: ["127.0.0.1"] })).url!;
    const a1 = await open(behind, "10.0.0.1");
    const b = await open(behind, "10.0.0.2");
    // A forged left-most entry does not make client A someone else: the proxy appended A's address.
    const a2 = await open(behind, "10.0.0.2, 10.0.0.1");
    expect([await alive(behind, a1), await alive(behind, b), await alive(behind, a2)]).toStrictEqual([
      404, 200, 200,
    ]);
    const direct = (await start({ maxSessionsPerClient: 1 })).url!;
    const c = await open(direct, "10.0.0.1");
    const d = await open(direct, "10.0.0.2");
    expect([await alive(direct, c), await alive(direct, d)]).toStrictEqual([404, 200]);
  });

  it("never evicts a session with a call in flight; refuses with 503 and Retry-After only when all have one", async () => {
    const url = (await start({ maxSessions: 1 })).url!;
    const busy = await connect(url);
    let waiting!: () => void;
    const started = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    // count_steps reports progress, then waits at its gate until the test opens it.
    const call = busy.callTool({ name: "count_steps", arguments: { steps: 2, pause: true } }, undefined, {
      onprogress: () => waiting(),
    });
    await started;
    const refused = await post(url, JSON.stringify(INIT));
    expect([refused.status, JSON.parse(refused.text).error.message]).toStrictEqual([
      503,
      "Service Unavailable: every session has a call in flight",
    ]);
    gate("steps").open();
    expect((await call).structuredContent).toStrictEqual({ result: "2 steps" });
    // Now idle, the busy session makes room for a newcomer and is gone.
    const newcomer = await connect(url);
    expect((await newcomer.callTool({ name: "add", arguments: { a: 2, b: 2 } })).isError).toBeUndefined();
    const gone = await busy.callTool({ name: "add", arguments: { a: 1, b: 1 } }).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(Error);
  });

  it("answers 429 with Retry-After to a client over its rate", async () => {
    const url = (await start({ rateLimit: { requests: 2, perMs: 60_000 } })).url!;
    expect((await post(url, JSON.stringify(INIT))).status).toBe(200);
    expect((await post(url, JSON.stringify(INIT))).status).toBe(200);
    const limited = await new Promise<{ status: number; retryAfter: string | undefined }>(
      (resolve, reject) => {
        const req = request(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        });
        req.on("response", (res) => {
          res.resume();
          resolve({ status: res.statusCode!, retryAfter: res.headers["retry-after"] });
        });
        req.on("error", reject);
        req.end(JSON.stringify(INIT));
      },
    );
    expect(limited).toStrictEqual({ status: 429, retryAfter: "30" });
  });
});

describe("health and graceful shutdown", () => {
  it("answers readiness from the application's own check, refusing while it fails or throws", async () => {
    let state: boolean | Error = false;
    const server = await start({
      ready: async () => {
        if (state instanceof Error) throw state;
        return state;
      },
    });
    const ready = async () => {
      const response = await fetch(new URL("/readyz", server.url!));
      return [response.status, await response.json()];
    };
    expect(await ready()).toStrictEqual([503, { status: "unavailable" }]);
    state = true;
    expect(await ready()).toStrictEqual([200, { status: "ready" }]);
    state = new Error("database unreachable");
    expect(await ready()).toStrictEqual([503, { status: "unavailable" }]);
    const health = await fetch(new URL("/healthz", server.url!));
    expect([health.status, await health.json()]).toStrictEqual([200, { status: "ok" }]);
  });

  it("answers the health check, and drains: calls being answered finish, new requests are refused", async () => {
    const server = await start();
    const url = server.url!;
    const health = async () => {
      const response = await fetch(new URL("/healthz", url));
      return [response.status, await response.json()];
    };
    expect(await health()).toStrictEqual([200, { status: "ok" }]);
    const ready = async () => {
      const response = await fetch(new URL("/readyz", url));
      return [response.status, await response.json()];
    };
    expect(await ready()).toStrictEqual([200, { status: "ready" }]);
    const client = await connect(url);
    let waiting!: () => void;
    const started = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const call = client.callTool({ name: "count_steps", arguments: { steps: 2, pause: true } }, undefined, {
      onprogress: () => waiting(),
    });
    await started;
    const draining = server.drain(60_000);
    expect(await health()).toStrictEqual([503, { status: "draining" }]);
    expect(await ready()).toStrictEqual([503, { status: "draining" }]);
    const refused = await post(url, JSON.stringify(INIT));
    expect([refused.status, JSON.parse(refused.text).error.message]).toStrictEqual([
      503,
      "Service Unavailable: the server is shutting down",
    ]);
    gate("steps").open();
    expect((await call).structuredContent).toStrictEqual({ result: "2 steps" });
    expect(await draining).toStrictEqual({ cutOff: 0 });
    await server.closed;
    await expect(fetch(new URL("/healthz", url))).rejects.toThrow();
  });
});

describe("sessionRoute", () => {
  it("starts every 2025-era session id with the route", async () => {
    const server = await start({ sessionRoute: "replica-7" });
    const response = await post(server.url!, JSON.stringify(INIT));
    expect(response.status).toBe(200);
    expect(response.sessionId).toMatch(/^replica-7\.[0-9a-f-]{36}$/);
  });

  it("refuses a route a balancer could not match on, with a clear error", async () => {
    await expect(start({ sessionRoute: "replica 1." })).rejects.toThrow(
      'mcp-gen: the session route "replica 1." must be 1 to 32 letters, digits, "-" or "_" (it starts every session id, e.g. "replica-1")',
    );
  });
});
