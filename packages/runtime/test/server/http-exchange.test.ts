import { request } from "node:http";
import { type RunningServer, serve } from "@mcp-gen/runtime/server";
import { Client as ClientV2, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { isLegacyRequest } from "@modelcontextprotocol/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { claimsModernEra } from "../../src/server/http/requests.ts";
import { Counter, resetProbe } from "./fixtures/probe/tools.ts";
import { modernEnvelope } from "./support/envelope.ts";
import { type BuiltProbe, buildProbe } from "./support/probe.ts";

/**
 * How a 2026-07-28 HTTP exchange is carried: routed on the body already parsed, read from the
 * socket without a second copy, answered as one JSON body when the call sends nothing before its
 * result and as an SSE stream when it does (progress).
 */
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

async function start(): Promise<string> {
  const server: RunningServer = await serve(probe.createManifest({ Counter: new Counter(1) }), {
    transport: "http",
    http: { port: 0, maxBodyBytes: 4096 },
    onError: () => {},
  });
  running.push(server);
  return server.url!;
}

const call = (name: string, args: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { name, arguments: args, _meta: { ...modernEnvelope(), ...meta } },
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A raw 2026-07-28 POST whose body is written in `chunks` pieces (the socket sees them apart). */
function post(url: string, body: string, { chunks = 1, method = "tools/call", name = "add" } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        "mcp-name": name,
      },
    });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (chunk: string) => {
        text += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on("error", reject);
    const size = Math.ceil(body.length / chunks);
    const pieces = Array.from({ length: chunks }, (_, i) => body.slice(i * size, (i + 1) * size));
    const next = () => {
      const piece = pieces.shift();
      if (piece === undefined) return void req.end();
      req.write(piece);
      setImmediate(next);
    };
    next();
  });
}

describe("a 2026-07-28 call over HTTP", () => {
  it("is answered as one JSON body with its length when the tool sends nothing before its result", async () => {
    const answer = await post(await start(), JSON.stringify(call("add", { a: 2, b: 3 })));
    expect([
      answer.status,
      answer.headers["content-type"],
      answer.headers["transfer-encoding"],
    ]).toStrictEqual([200, "application/json", undefined]);
    expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.text));
    expect(JSON.parse(answer.text)).toMatchObject({ id: 7, result: { structuredContent: 5 } });
  });

  it("streams SSE when the tool reports progress: the notifications, then the result", async () => {
    const answer = await post(
      await start(),
      JSON.stringify(call("count_steps", { steps: 2 }, { progressToken: "p" })),
      { name: "count_steps" },
    );
    expect([answer.status, answer.headers["content-type"]]).toStrictEqual([200, "text/event-stream"]);
    const frames = [...answer.text.matchAll(/^data: (.*)$/gm)].map((m) => JSON.parse(m[1]!));
    expect(frames.map((f) => f.method ?? `result ${f.id}`)).toStrictEqual([
      "notifications/progress",
      "notifications/progress",
      "result 7",
    ]);
    expect(frames[2].result.structuredContent).toBe("2 steps");
  });

  it("reads a body that arrives in pieces, and refuses one over the limit sent without a length", async () => {
    const url = await start();
    const pieces = await post(url, JSON.stringify(call("add", { a: 1, b: 1 })), { chunks: 5 });
    expect(JSON.parse(pieces.text)).toMatchObject({ id: 7, result: { structuredContent: 2 } });
    const huge = JSON.stringify(call("save", { data: { blob: "x".repeat(8000) } }));
    const refused = await post(url, huge, { chunks: 4, name: "save" });
    expect([refused.status, JSON.parse(refused.text).error.message]).toStrictEqual([
      413,
      "Payload Too Large: request bodies are limited to 4096 bytes",
    ]);
  });

  it("serves the SDK v2 client pinned to 2026-07-28: plain calls and calls with progress", async () => {
    const client = new ClientV2(
      { name: "exchange-test", version: "1" },
      {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(await start())));
    running.push(client);
    expect((await client.callTool({ name: "add", arguments: { a: 4, b: 5 } })).structuredContent).toBe(9);
    const progress: number[] = [];
    const counted = await client.callTool(
      { name: "count_steps", arguments: { steps: 3 } },
      { onprogress: (p: { progress: number }) => progress.push(p.progress) },
    );
    expect([counted.structuredContent, progress]).toStrictEqual(["3 steps", [1, 2, 3]]);
  });
});

describe("routing 2025 and 2026-07-28 requests on the parsed body", () => {
  const claim = { _meta: modernEnvelope() };
  const bodies: [string, unknown][] = [
    ["an enveloped call", call("add", { a: 1, b: 2 })],
    ["an enveloped notification", { jsonrpc: "2.0", method: "notifications/cancelled", params: claim }],
    [
      "a claim naming an unknown revision",
      call("add", {}, { "io.modelcontextprotocol/protocolVersion": "2099-01-01" }),
    ],
    ["a claim that is not a string", call("add", {}, { "io.modelcontextprotocol/protocolVersion": 7 })],
    ["an initialize with a claim", { jsonrpc: "2.0", id: 1, method: "initialize", params: claim }],
    ["a 2025 call", { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add" } }],
    ["a 2025 notification", { jsonrpc: "2.0", method: "notifications/initialized" }],
    ["a posted response with a claim", { jsonrpc: "2.0", id: 1, result: {}, method: "x", params: claim }],
    ["a batch", [call("add", {})]],
    ["no params", { jsonrpc: "2.0", id: 1, method: "ping" }],
    ["_meta not an object", { jsonrpc: "2.0", id: 1, method: "ping", params: { _meta: [] } }],
    ["not JSON-RPC, with a claim", { id: 1, method: "ping", params: claim }],
    ["null", null],
  ];

  it.each(bodies)("never calls modern what the SDK routes to its legacy leg: %s", async (_, body) => {
    const web = new Request("http://127.0.0.1/mcp", {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    const legacy = await isLegacyRequest(web, body ?? undefined);
    if (claimsModernEra(body)) expect(legacy).toBe(false);
  });

  it("claims the enveloped requests and notifications, nothing else", () => {
    expect(bodies.filter(([, body]) => claimsModernEra(body)).map(([name]) => name)).toStrictEqual([
      "an enveloped call",
      "an enveloped notification",
      "a claim naming an unknown revision",
      "a claim that is not a string",
      "not JSON-RPC, with a claim",
    ]);
  });
});
