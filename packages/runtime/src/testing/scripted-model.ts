import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  anthropicError,
  anthropicEvents,
  anthropicMessage,
  checkAnthropicRequest,
  viewAnthropicRequest,
} from "./anthropic-wire.ts";
import {
  checkOpenAiRequest,
  openAiChunks,
  openAiCompletion,
  openAiError,
  viewOpenAiRequest,
} from "./openai-wire.ts";
import type { ScriptedReply, ScriptedRequest, ScriptStep } from "./script.ts";

/** Options of `startScriptedModel()`. */
export interface ScriptedModelOptions {
  /** Replies in order, one per request (more can be added with `enqueue`). */
  script?: readonly ScriptStep[];
  /** Characters per streamed text delta. Default 4. */
  chunkSize?: number;
  /** Reject requests an API would reject (unanswered `tool_use`, bad tool names …). Default `true`. */
  checkRequests?: boolean;
}

/** A running scripted model endpoint. */
export interface ScriptedModel {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Base URL for `@anthropic-ai/sdk` (`baseURL` or `ANTHROPIC_BASE_URL`). */
  readonly anthropicBaseURL: string;
  /** Base URL for `openai` (`baseURL` or `OPENAI_BASE_URL`). */
  readonly openaiBaseURL: string;
  /** Every request received, in order. */
  readonly requests: readonly ScriptedRequest[];
  /** Requests rejected by the checks or for want of a reply, with the reason. */
  readonly rejected: readonly { request: number; message: string }[];
  /** Environment variables pointing both SDKs here (for child processes such as `mcp-gen chat`). */
  env(): Record<string, string>;
  enqueue(...steps: ScriptStep[]): void;
  /** Replies not used yet. */
  remaining(): number;
  close(): Promise<void>;
}

/**
 * A model endpoint on 127.0.0.1 that speaks the Anthropic Messages and OpenAI Chat Completions
 * wire formats, non-streaming and streaming (SSE), and answers each request with the next
 * scripted reply — so the official SDK clients and everything built on them run for real,
 * offline and deterministically.
 *
 * @example
 * const model = await startScriptedModel({
 *   script: [
 *     { toolCalls: [{ name: "search_devices", arguments: { query: "客厅 灯", limit: 5 } }] },
 *     { text: "已成功打开客厅吸顶灯" },
 *   ],
 * });
 * const agent = createAgent({ model: anthropicModel({ model: "m", apiKey: "test", baseURL: model.anthropicBaseURL }), tools });
 */
export async function startScriptedModel(options: ScriptedModelOptions = {}): Promise<ScriptedModel> {
  const queue: ScriptStep[] = [...(options.script ?? [])];
  const requests: ScriptedRequest[] = [];
  const rejected: { request: number; message: string }[] = [];
  const chunkSize = options.chunkSize ?? 4;
  const check = options.checkRequests ?? true;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const api =
      req.method !== "POST"
        ? undefined
        : path === "/v1/messages"
          ? "anthropic"
          : path === "/v1/chat/completions"
            ? "openai"
            : undefined;
    if (!api) {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
      return;
    }
    const body = JSON.parse(await readBody(req));
    const index = requests.length;
    const view = api === "anthropic" ? viewAnthropicRequest(body, index) : viewOpenAiRequest(body, index);
    requests.push(view);
    const errorBody = api === "anthropic" ? anthropicError : openAiError;
    const reject = (status: number, message: string) => {
      rejected.push({ request: index, message });
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(errorBody(message)));
    };
    const problem = check
      ? api === "anthropic"
        ? checkAnthropicRequest(body)
        : checkOpenAiRequest(body)
      : undefined;
    if (problem) return reject(400, problem);
    const step = queue.shift();
    if (!step) return reject(400, `scripted model: no reply left for request #${index}`);
    const reply: ScriptedReply = typeof step === "function" ? await step(view) : step;
    if (reply.error) return reject(reply.error.status, reply.error.message);
    if (!view.stream) {
      const payload = api === "anthropic" ? anthropicMessage(reply, view) : openAiCompletion(reply, view);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(payload));
      return;
    }
    const events =
      api === "anthropic" ? anthropicEvents(reply, view, chunkSize) : openAiChunks(reply, view, chunkSize);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const event of events.split(/(?<=\n\n)/)) res.write(event);
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    anthropicBaseURL: url,
    openaiBaseURL: `${url}/v1`,
    requests,
    rejected,
    env: () => ({
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: "scripted",
      OPENAI_BASE_URL: `${url}/v1`,
      OPENAI_API_KEY: "scripted",
    }),
    enqueue: (...steps) => {
      queue.push(...steps);
    },
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}
