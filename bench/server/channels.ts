import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/server";
import type { Message } from "./protocol.ts";

/** A way to send JSON-RPC to a server: a request and its reply, or a notification. */
export interface Channel {
  call(message: Message & { id: number }): Promise<unknown>;
  notify(message: Message): Promise<void>;
  close(): Promise<void>;
}

type Pending = Map<unknown, (reply: unknown) => void>;

function settle(pending: Pending, reply: { id?: unknown }): void {
  const resolve = pending.get(reply.id);
  if (resolve) {
    pending.delete(reply.id);
    resolve(reply);
  }
}

/** JSON-RPC over the client side of an in-memory transport pair (no serialization). */
export async function memoryChannel(clientSide: Transport): Promise<Channel> {
  const pending: Pending = new Map();
  clientSide.onmessage = (m) => settle(pending, m as { id?: unknown });
  await clientSide.start();
  return {
    call: (message) =>
      new Promise((resolve) => {
        pending.set(message.id, resolve);
        void clientSide.send(message as JSONRPCMessage);
      }),
    notify: (message) => clientSide.send(message as JSONRPCMessage),
    close: () => clientSide.close(),
  };
}

/** JSON-RPC lines over a child process's stdin/stdout. */
export function stdioChannel(
  command: string,
  args: string[],
  cwd?: string,
): Channel & { child: ChildProcess } {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"], ...(cwd ? { cwd } : {}) });
  const pending: Pending = new Map();
  let buffered = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    let newline = buffered.indexOf("\n");
    while (newline !== -1) {
      settle(pending, JSON.parse(buffered.slice(0, newline)));
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
    }
  });
  return {
    child,
    call: (message) =>
      new Promise((resolve) => {
        pending.set(message.id, resolve);
        child.stdin!.write(`${JSON.stringify(message)}\n`);
      }),
    notify: async (message) => {
      child.stdin!.write(`${JSON.stringify(message)}\n`);
    },
    close: async () => {
      child.kill();
    },
  };
}

/**
 * POSTs over keep-alive connections; the reply is the JSON body, or the SSE `data:` line of the
 * request's id, or `{ status, body }` when there is neither. `headers` gives the era's headers of
 * each message; a session id the server hands out (`Mcp-Session-Id`) is sent back from then on.
 */
export function httpChannel(
  url: string,
  sockets: number,
  headers: (message: Message) => Record<string, string>,
): Channel & { readonly session: string | undefined } {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  let session: string | undefined;
  const post = (message: Message) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        url,
        {
          method: "POST",
          agent,
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            ...headers(message),
            ...(session ? { "mcp-session-id": session } : {}),
          },
        },
        (res) => {
          const id = res.headers["mcp-session-id"];
          if (typeof id === "string") session = id;
          let body = "";
          res.setEncoding("utf8").on("data", (c: string) => {
            body += c;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify(message));
    });
  return {
    get session() {
      return session;
    },
    call: async (message) => {
      const { status, body } = await post(message);
      if (body.startsWith("{")) return JSON.parse(body);
      for (const match of body.matchAll(/^data: (.*)$/gm)) {
        const data = JSON.parse(match[1]!) as { id?: unknown };
        if (data.id === message.id) return data;
      }
      return { status, body };
    },
    notify: async (message) => {
      const { status, body } = await post(message);
      if (status >= 300) throw new Error(`notification refused: HTTP ${status} ${body}`);
    },
    close: async () => agent.destroy(),
  };
}

/** Starts a process that prints `… http://127.0.0.1:<port>/mcp` to stderr; resolves with the URL. */
export function startHttp(command: string, args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let err = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      err += chunk;
      const match = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (match) resolve({ url: match[1]!, child });
    });
    child.once("exit", () => reject(new Error(`server exited: ${err}`)));
  });
}
