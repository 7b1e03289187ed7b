import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type ModelProvider, mcpTools } from "@mcp-gen/runtime/agent";
import { checkRequest, resolveHttpOptions } from "@mcp-gen/runtime/server/http";
import { ChatSession, systemPrompt } from "./chat-session.ts";
import { readJsonObject, SECURITY_HEADERS, sendError, sendJson, staticFiles } from "./http.ts";
import { type LedgerServerOptions, startLedgerServer } from "./ledger-server.ts";
import type { PageEvent } from "./page-events.ts";

export interface LedgerWebOptions extends LedgerServerOptions {
  model: ModelProvider;
  /** Port on 127.0.0.1; `0` picks a free one. Default 8787. */
  port?: number;
  /** System prompt; default `systemPrompt($LEDGER_DEFAULT_SENDER or "alice")`. */
  system?: string;
}

export interface LedgerWeb {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  close(): Promise<void>;
}

const SESSION_ID = /^[A-Za-z0-9-]{8,64}$/;
const MAX_SESSIONS = 50;
const MAX_MESSAGE = 4000;
/** The method each route answers ("file": the page's static files). */
const ROUTES = new Map([
  ["file", "GET"],
  ["/api/balances", "GET"],
  ["/api/chat", "POST"],
  ["/api/permission", "POST"],
]);

/**
 * The ledger's web chat (the seed's Streamlit page): a page on 127.0.0.1 talking to the agent
 * runtime, whose tools are those of `mcp-gen serve ledger` reached over an MCP client (stdio).
 * Requests pass the MCP server's Host/Origin checks first (DNS rebinding, other sites).
 *
 * @example
 * const web = await startLedgerWeb({ model: anthropicModel({ model: "claude-sonnet-5-5" }) });
 * console.log(`open ${web.url}`);
 */
export async function startLedgerWeb(options: LedgerWebOptions): Promise<LedgerWeb> {
  const ledger = await startLedgerServer(options);
  const tools = mcpTools({ name: "ledger", client: ledger.client });
  const balances = async () => ({ type: "balances" as const, accounts: await ledger.balances() });
  const sessions = new Map<string, ChatSession>();
  const files = staticFiles();
  const user = options.env?.LEDGER_DEFAULT_SENDER || process.env.LEDGER_DEFAULT_SENDER || "alice";
  const system = options.system ?? systemPrompt(user);

  const session = (id: string): ChatSession => {
    let found = sessions.get(id);
    if (!found) {
      if (sessions.size >= MAX_SESSIONS) {
        const idle = [...sessions]
          .filter(([, s]) => !s.running)
          .sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
        if (idle[0]) {
          sessions.delete(idle[0][0]);
          void idle[0][1].close();
        }
      }
      found = new ChatSession({ model: options.model, tools, balances, system });
      sessions.set(id, found);
    }
    return found;
  };

  async function chat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJsonObject(req);
    if (!body.ok) return sendError(res, body.status, body.message);
    const { session: id, message } = body.value;
    if (typeof id !== "string" || !SESSION_ID.test(id))
      return sendError(res, 400, "session: 8–64 letters, digits or -");
    if (typeof message !== "string" || message.trim() === "" || message.length > MAX_MESSAGE)
      return sendError(res, 400, `message: 1–${MAX_MESSAGE} characters`);
    const chatSession = session(id);
    const abort = new AbortController();
    res.on("close", () => abort.abort(new Error("the page went away")));
    res.writeHead(200, { ...SECURITY_HEADERS, "content-type": "application/x-ndjson; charset=utf-8" });
    const send = (event: PageEvent) => res.write(`${JSON.stringify(event)}\n`);
    try {
      for await (const event of chatSession.send(message, abort.signal)) send(event);
    } catch (error) {
      if (!abort.signal.aborted) send({ type: "error", message: (error as Error).message });
    }
    res.end();
  }

  async function permission(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJsonObject(req);
    if (!body.ok) return sendError(res, body.status, body.message);
    const { session: id, id: callId, allow } = body.value;
    if (typeof id !== "string" || typeof callId !== "string" || typeof allow !== "boolean")
      return sendError(res, 400, "send { session, id, allow: true | false }");
    const decided = sessions.get(id)?.decide(callId, allow) ?? false;
    if (!decided) return sendError(res, 404, `no call "${callId}" is waiting for a decision`);
    sendJson(res, 200, { ok: true });
  }

  let guard!: ReturnType<typeof resolveHttpOptions>;
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refusal = checkRequest(req, guard);
    if (refusal) return sendError(res, refusal.status, refusal.message);
    const path = (req.url ?? "/").split("?")[0]!;
    const file = files.get(path);
    const route = file ? "file" : path;
    const method = req.method ?? "GET";
    const allowed = ROUTES.get(route);
    if (!allowed) return sendError(res, 404, `no page ${path}`);
    if (method !== allowed) return sendError(res, 405, `use ${allowed} ${path}`);
    if (file) {
      res.writeHead(200, { ...SECURITY_HEADERS, "content-type": file.type }).end(file.body);
      return;
    }
    if (route === "/api/balances") return sendJson(res, 200, await balances());
    if (route === "/api/chat") return chat(req, res);
    return permission(req, res);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent) sendError(res, 500, error.message);
      else res.end();
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(options.port ?? 8787, "127.0.0.1", resolve);
    });
  } catch (error) {
    await ledger.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  guard = resolveHttpOptions({ host: "127.0.0.1" }, port);
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...sessions.values()].map((s) => s.close()));
      await ledger.close();
    },
  };
}
