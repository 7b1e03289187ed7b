import { connectHttp } from "@mcp-gen/runtime/client";
import { type RunningServer, serve } from "@mcp-gen/runtime/server";
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manifest } from "../../../../generated/conformance/server.ts";

// The application registers an OpenTelemetry SDK; the runtime's spans then reach its exporter.
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

let server: RunningServer;
beforeAll(async () => {
  trace.setGlobalTracerProvider(provider);
  server = await serve(manifest, { transport: "http", http: { port: 0 }, onError: () => {} });
});
afterAll(async () => {
  await server.close();
  await provider.shutdown();
  trace.disable();
});

describe("OpenTelemetry spans of tool calls", () => {
  it("records a SERVER span per tools/call with the MCP semantic conventions' attributes, in both eras", async () => {
    const legacy = await connectHttp(server.url!, { protocol: "legacy" });
    const modern = await connectHttp(server.url!, { protocol: "2026-07-28" });
    exporter.reset();
    await legacy.client.callTool({ name: "test_simple_text", arguments: {} });
    await modern.client.callTool({ name: "test_simple_text", arguments: {} });
    await legacy.client.callTool({ name: "test_error_handling", arguments: {} });
    await legacy.client.callTool({ name: "json_schema_2020_12_tool", arguments: { name: 5 } });
    await expect(legacy.client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow();
    await legacy.client.listTools();

    const spans = exporter.getFinishedSpans();
    const session = legacy.client.transport?.sessionId;
    expect(
      spans.map((s) => [
        s.name,
        s.kind,
        s.status.code,
        s.attributes["error.type"],
        s.attributes["mcp.session.id"],
      ]),
    ).toStrictEqual([
      ["tools/call test_simple_text", SpanKind.SERVER, SpanStatusCode.UNSET, undefined, session],
      ["tools/call test_simple_text", SpanKind.SERVER, SpanStatusCode.UNSET, undefined, undefined],
      ["tools/call test_error_handling", SpanKind.SERVER, SpanStatusCode.ERROR, "tool_error", session],
      [
        "tools/call json_schema_2020_12_tool",
        SpanKind.SERVER,
        SpanStatusCode.ERROR,
        "invalid_arguments",
        session,
      ],
      ["tools/call no_such_tool", SpanKind.SERVER, SpanStatusCode.ERROR, "-32602", session],
    ]);
    expect(spans[1]!.attributes).toStrictEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "test_simple_text",
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": expect.any(String),
      "mcp.protocol.version": "2026-07-28",
    });
    expect(spans[0]!.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "mcp.session.id": session,
    });
    await Promise.all([legacy.close(), modern.close()]);
  });
});
