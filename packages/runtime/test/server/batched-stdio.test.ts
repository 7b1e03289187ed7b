import { PassThrough, Writable } from "node:stream";
import { serve } from "@mcp-gen/runtime/server";
import { BatchedStdioServerTransport } from "@mcp-gen/runtime/server/stdio";
import { afterEach, describe, expect, it } from "vitest";
import { manifest } from "../../../../generated/smart-home/server.ts";

/** A stdout that records what reaches it: each `write` or `writev` as one batch of lines. */
class RecordingStdout extends Writable {
  readonly batches: string[][] = [];
  readonly #waiters: (() => void)[] = [];
  constructor(highWaterMark?: number) {
    super(highWaterMark === undefined ? {} : { highWaterMark });
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.#record([chunk]);
    callback();
  }
  override _writev(chunks: { chunk: Buffer }[], callback: () => void): void {
    this.#record(chunks.map((c) => c.chunk));
    callback();
  }
  #record(chunks: Buffer[]): void {
    this.batches.push(chunks.flatMap((c) => c.toString("utf8").split("\n").filter(Boolean)));
    for (const waiter of this.#waiters.splice(0)) waiter();
  }
  get lines(): { id?: number; result?: Record<string, unknown>; error?: unknown }[] {
    return this.batches.flat().map((line) => JSON.parse(line));
  }
  /** Resolves once `n` messages have been written. */
  async received(n: number): Promise<void> {
    while (this.batches.flat().length < n) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};
const call = (id: number, limit: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "search_devices", arguments: { query: "灯", limit } },
});
const lines = (messages: object[]) => messages.map((m) => `${JSON.stringify(m)}\n`).join("");

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
});

/** A server on the batched transport over in-process streams, past its `initialize`. */
async function start(highWaterMark?: number) {
  const stdin = new PassThrough();
  const stdout = new RecordingStdout(highWaterMark);
  open.push(await serve(manifest, { transport: new BatchedStdioServerTransport(stdin, stdout) }));
  stdin.write(lines([INITIALIZE, { jsonrpc: "2.0", method: "notifications/initialized" }]));
  await stdout.received(1);
  return { stdin, stdout };
}

describe("BatchedStdioServerTransport", () => {
  it("writes the replies to the requests of one read together, each whole and in its own line", async () => {
    const { stdin, stdout } = await start();
    const requests = Array.from({ length: 32 }, (_, i) => call(i + 1, 1 + (i % 3)));
    stdin.write(lines(requests));
    await stdout.received(33);
    expect(stdout.batches.length).toBeLessThan(33);
    expect(stdout.batches.slice(1).some((batch) => batch.length > 1)).toBe(true);
    const replies = stdout.lines.slice(1);
    expect(replies.map((r) => r.id).sort((a, b) => a! - b!)).toStrictEqual(requests.map((r) => r.id));
    for (const reply of replies) {
      const devices = (reply.result?.structuredContent as { result: unknown[] }).result;
      expect(devices.length).toBe(Math.min(1 + ((reply.id! - 1) % 3), devices.length));
      expect(reply.result?.isError).toBeUndefined();
    }
  });

  it("sends a lone reply at the end of its turn", async () => {
    const { stdin, stdout } = await start();
    stdin.write(lines([call(7, 2)]));
    await stdout.received(2);
    expect(stdout.batches.at(-1)).toHaveLength(1);
    expect(stdout.lines[1]).toMatchObject({
      id: 7,
      result: { structuredContent: { result: expect.any(Array) } },
    });
  });

  it("writes a batch out once it reaches stdout's high-water mark, so sends do not pile up waiting", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const { stdin, stdout } = await start(1024);
      stdin.write(lines(Array.from({ length: 50 }, (_, i) => call(i + 1, 2))));
      await stdout.received(51);
      expect(new Set(stdout.lines.slice(1).map((r) => r.id)).size).toBe(50);
      // ~400-byte replies against a 1 KB mark: several batches, none far past the mark.
      const sizes = stdout.batches.slice(1).map((batch) => batch.join("\n").length);
      expect(sizes.length).toBeGreaterThan(5);
      expect(Math.max(...sizes)).toBeLessThan(2048);
      await new Promise((resolve) => setImmediate(resolve));
      expect(stdout.listenerCount("drain")).toBe(0);
      expect(warnings.map((w) => w.name)).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
    }
  });
});
