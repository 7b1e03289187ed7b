import { fromJsonSchema, inputRequired, inputResponse, McpServer } from "@modelcontextprotocol/server";
import { serveSdkHttp } from "./sdk-http.ts";

/**
 * An upstream server on the official SDK v2 `McpServer` (both eras over stdio: the first message
 * picks one) whose tools ask their client while they run — elicitation, sampling, roots, in the
 * 2026-07-28 way (`inputRequired`; `open_url` by URL), which the SDK's legacy shim turns into 2025 requests — and
 * report progress and log messages (`hold`, until its state's `held` are called). `wait_for_cancel` runs until its request is cancelled;
 * `cancelled_count` answers once one was.
 */
export function createAskingServer(state: AskingState): McpServer {
  const server = new McpServer({ name: "asking", version: "1.0.0" }, { capabilities: { logging: {} } });
  const empty = fromJsonSchema({ type: "object" });
  const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
  server.registerTool(
    "ask_name",
    { inputSchema: empty, annotations: { readOnlyHint: true } },
    async (_args, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "name");
      if (answer.kind !== "elicit")
        return inputRequired({
          inputRequests: {
            name: inputRequired.elicit({
              message: "What is your name?",
              requestedSchema: {
                type: "object",
                properties: { name: { type: "string" } },
                required: ["name"],
              },
            }),
          },
        });
      return text(
        answer.action === "accept" ? `hello ${String(answer.content?.name)}` : `you chose ${answer.action}`,
      );
    },
  );
  // URL mode: the user is sent to a page (a sign-in, a payment) that must not pass through the client
  server.registerTool(
    "open_url",
    { inputSchema: empty, annotations: { readOnlyHint: true } },
    async (_args, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "login");
      if (answer.kind !== "elicit")
        return inputRequired({
          inputRequests: {
            login: inputRequired.elicitUrl({
              message: "Sign in to continue",
              url: "https://example.com/login",
            }),
          },
        });
      return text(`you chose ${answer.action}`);
    },
  );
  server.registerTool(
    "summarize",
    {
      inputSchema: fromJsonSchema({
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
      }),
      annotations: { readOnlyHint: true },
    },
    async (args, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "summary");
      if (answer.kind !== "sampling")
        return inputRequired({
          inputRequests: {
            summary: inputRequired.createMessage({
              messages: [
                {
                  role: "user",
                  content: { type: "text", text: `Summarize: ${String((args as { text?: unknown }).text)}` },
                },
              ],
              maxTokens: 50,
            }),
          },
        });
      const content = answer.result.content as { type: string; text?: string };
      return text(`summary: ${content.text ?? content.type}`);
    },
  );
  server.registerTool(
    "list_roots",
    { inputSchema: empty, annotations: { readOnlyHint: true } },
    async (_args, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "roots");
      if (answer.kind !== "roots")
        return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
      return text(answer.roots.map((r) => r.uri).join(","));
    },
  );
  // holds until `release`: a client sees its progress and log message while the call still runs
  server.registerTool(
    "hold",
    { inputSchema: empty, annotations: { readOnlyHint: true } },
    async (_args, ctx) => {
      const released = new Promise<void>((resolve) => state.held.push(resolve));
      await ctx.mcpReq.log("info", "holding", "hold");
      const token = ctx.mcpReq._meta?.progressToken;
      if (token !== undefined)
        await ctx.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken: token, progress: 1, total: 2, message: "holding" },
        });
      await released;
      return text("released");
    },
  );
  server.registerTool(
    "wait_for_cancel",
    { inputSchema: empty, annotations: { readOnlyHint: true } },
    async (_args, ctx) => {
      const token = ctx.mcpReq._meta?.progressToken;
      const { signal } = ctx.mcpReq;
      const cancelled = new Promise<void>((resolve) =>
        signal.addEventListener("abort", () => resolve(), { once: true }),
      );
      if (token !== undefined)
        await ctx.mcpReq.notify({
          method: "notifications/progress",
          params: { progressToken: token, progress: 1, message: "waiting" },
        });
      await cancelled;
      state.cancelled++;
      for (const wake of state.waiters.splice(0)) wake();
      return text("cancelled");
    },
  );
  server.registerTool(
    "cancelled_count",
    { inputSchema: empty, annotations: { readOnlyHint: true } },
    async () => {
      if (state.cancelled === 0) await new Promise<void>((resolve) => state.waiters.push(resolve));
      return text(String(state.cancelled));
    },
  );
  return server;
}

/** What the server's tools share: cancelled calls, and the calls `hold` keeps waiting. */
export interface AskingState {
  cancelled: number;
  waiters: (() => void)[];
  held: (() => void)[];
}

export const askingState = (): AskingState => ({ cancelled: 0, waiters: [], held: [] });

/** Serves {@link createAskingServer} over Streamable HTTP on 127.0.0.1 (`/mcp`), both eras. */
export async function serveAskingHttp(state: AskingState): Promise<{ url: string; close(): Promise<void> }> {
  return serveSdkHttp(() => createAskingServer(state));
}
