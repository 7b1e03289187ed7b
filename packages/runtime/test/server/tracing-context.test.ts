import { AsyncLocalStorage } from "node:async_hooks";
import { connectInMemory } from "@mcp-gen/runtime/client";
import { createServer, type ServerManifest } from "@mcp-gen/runtime/server";
import { type Context, type ContextManager, context, ROOT_CONTEXT, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** A context manager on AsyncLocalStorage, as `@opentelemetry/context-async-hooks` provides one. */
class StorageContextManager implements ContextManager {
  readonly #storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.#storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.#storage.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.#storage.disable();
    return this;
  }
}

const ok = { ok: true as const };
/** A tool that opens a span of its own through the application's `@opentelemetry/api`. */
const manifest = {
  server: "traced",
  tools: [
    {
      definition: { name: "lookup", inputSchema: { type: "object" } },
      input: { check: () => ok, is: () => true },
      resultWrapped: false,
      usesContext: false,
      invoke: () => {
        const span = trace.getTracer("app").startSpan("db query");
        span.end();
        return "done";
      },
    },
  ],
} as unknown as ServerManifest;

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(() => {
  context.setGlobalContextManager(new StorageContextManager());
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

describe("OpenTelemetry context of a tool call", () => {
  it("makes the tool's own spans children of its tools/call span (the runtime reads the API's global registry)", async () => {
    const { client, close } = await connectInMemory(createServer(manifest));
    exporter.reset();
    await client.callTool({ name: "lookup", arguments: {} });
    const spans = exporter.getFinishedSpans();
    const call = spans.find((s) => s.name === "tools/call lookup");
    const own = spans.find((s) => s.name === "db query");
    expect({
      names: spans.map((s) => s.name),
      parent: own?.parentSpanContext?.spanId,
      trace: own?.spanContext().traceId,
    }).toStrictEqual({
      names: ["db query", "tools/call lookup"],
      parent: call?.spanContext().spanId,
      trace: call?.spanContext().traceId,
    });
    await close();
  });
});
