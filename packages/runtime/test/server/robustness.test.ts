import { request } from "node:http";
import { PassThrough } from "node:stream";
import { type ServerManifest, serve } from "@mcp-gen/runtime/server";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Counter, executions, resetProbe } from "./fixtures/probe/tools.ts";
import { checkReply, type Frame, frames } from "./support/fuzz.ts";
import { type BuiltProbe, buildProbe } from "./support/probe.ts";

let probe: BuiltProbe;
let manifest: ServerManifest;
beforeAll(async () => {
  probe = await buildProbe();
  manifest = probe.createManifest({ Counter: new Counter(1) });
});
afterAll(() => probe.dispose());
beforeEach(() => resetProbe());

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } },
};

/** Every execution, rebuilt into the arguments object it came from, must pass its tool's validator. */
function expectOnlyValidExecutions(sent: Frame[]): void {
  const bindings = (
    probe.contract as unknown as { "x-mcp-gen": { tools: Record<string, { binding: Binding }> } }
  )["x-mcp-gen"].tools;
  const invalid = executions.filter(({ tool, args }) => {
    const binding = bindings[tool]!.binding;
    const object =
      binding.argsStyle === "object"
        ? args[0]
        : Object.fromEntries(binding.params.map((p, i) => [p, args[i]]).filter(([, v]) => v !== undefined));
    return !manifest.tools.find((t) => t.definition.name === tool)!.input.is(object);
  });
  expect(invalid).toStrictEqual([]);
  expect(executions.length).toBe(sent.filter((f) => f.valid).length);
}

interface Binding {
  argsStyle: "positional" | "object";
  params: string[];
}

describe("robustness over a stdio byte stream", () => {
  it("survives thousands of malformed frames and runs tools only with valid arguments", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const running = await serve(manifest, {
      transport: new StdioServerTransport(input, output),
      onError: () => {},
    });
    const sent = frames(3000);
    const expected = new Map(sent.filter((f) => f.id !== undefined).map((f) => [f.id!, f]));
    const replies = new Map<unknown, Record<string, unknown>>();
    const malformed: string[] = [];
    let buffered = "";
    let allReplied!: () => void;
    const done = new Promise<void>((resolve) => {
      allReplied = resolve;
    });
    output.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      let newline = buffered.indexOf("\n");
      while (newline !== -1) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        newline = buffered.indexOf("\n");
        try {
          const reply = JSON.parse(line) as Record<string, unknown>;
          const id = checkReply(reply);
          if (id !== undefined) {
            if (replies.has(id)) malformed.push(`second reply for id ${String(id)}`);
            replies.set(id, reply);
          }
        } catch (error) {
          malformed.push(`${(error as Error).message}: ${line.slice(0, 120)}`);
        }
        if ([...expected.keys()].every((id) => replies.has(id)) && replies.has("final")) allReplied();
      }
    });

    input.write(`${JSON.stringify(INIT)}\n`);
    for (const frame of sent) input.write(Buffer.concat([frame.bytes, Buffer.from("\n")]));
    input.write(`${JSON.stringify({ jsonrpc: "2.0", id: "final", method: "ping" })}\n`);
    await done;

    expect(malformed).toStrictEqual([]);
    expect(replies.get("final")).toStrictEqual({ jsonrpc: "2.0", id: "final", result: {} });
    for (const frame of sent.filter((f) => f.valid)) {
      const reply = replies.get(frame.id!)!;
      expect([frame.id, reply.error, (reply.result as { isError?: boolean }).isError]).toStrictEqual([
        frame.id,
        undefined,
        undefined,
      ]);
    }
    expectOnlyValidExecutions(sent);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await running.close();
  });
});

/** POSTs raw bytes; resolves with the status and the JSON-RPC messages of the body (JSON or SSE). */
function post(url: string, body: Buffer, session?: string) {
  return new Promise<{ status: number; messages: unknown[]; session: string | undefined }>(
    (resolve, reject) => {
      const req = request(
        url,
        {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...(session ? { "mcp-session-id": session } : {}),
          },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (chunk: string) => {
            text += chunk;
          });
          res.on("end", () => {
            const sse = res.headers["content-type"]?.includes("text/event-stream");
            const lines = sse
              ? text
                  .split("\n")
                  .filter((l) => l.startsWith("data: "))
                  .map((l) => l.slice(6))
              : [text];
            resolve({
              status: res.statusCode!,
              messages: lines.filter((l) => l !== "").map((l) => JSON.parse(l)),
              session: res.headers["mcp-session-id"] as string | undefined,
            });
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    },
  );
}

describe("robustness over Streamable HTTP", () => {
  it("answers every malformed request with a well-formed reply and stays up", async () => {
    const running = await serve(manifest, { transport: "http", http: { port: 0 }, onError: () => {} });
    const url = running.url!;
    const init = await post(url, Buffer.from(JSON.stringify(INIT)));
    const session = init.session!;
    const sent = frames(600, 11);
    const problems: string[] = [];
    for (const frame of sent) {
      const { status, messages } = await post(url, frame.bytes, session);
      for (const message of messages) {
        try {
          const id = checkReply(message);
          if (frame.id !== undefined && id !== frame.id && id !== null)
            problems.push(`reply id ${String(id)} for ${frame.id}`);
        } catch (error) {
          problems.push((error as Error).message);
        }
      }
      if (frame.id !== undefined && status === 200 && messages.length !== 1)
        problems.push(`${messages.length} replies`);
      if (frame.valid && status !== 200) problems.push(`valid call answered with HTTP ${status}`);
      if (status >= 500) problems.push(`HTTP ${status}`);
    }
    const ping = await post(url, Buffer.from('{"jsonrpc":"2.0","id":"final","method":"ping"}'), session);
    expect(ping.messages).toStrictEqual([{ jsonrpc: "2.0", id: "final", result: {} }]);
    expect(problems).toStrictEqual([]);
    expectOnlyValidExecutions(sent);
    await running.close();
  });
});
