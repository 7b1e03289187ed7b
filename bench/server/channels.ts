import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

/** A way to send one JSON-RPC request and wait for its reply. */
export interface Channel {
  call(message: { id: number; [key: string]: unknown }): Promise<unknown>;
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
        void clientSide.send(message as never);
      }),
    close: () => clientSide.close(),
  };
}

/** JSON-RPC lines over a child process's stdin/stdout. */
export function stdioChannel(command: string, args: string[]): Channel & { child: ChildProcess } {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
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
    close: async () => {
      child.kill();
    },
  };
}

/** POSTs over keep-alive connections; the reply is the JSON body or the SSE `data:` line. */
export function httpChannel(url: string, sockets: number, session?: string): Channel {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  return {
    call: (message) =>
      new Promise((resolve, reject) => {
        const req = request(
          url,
          {
            method: "POST",
            agent,
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              ...(session ? { "mcp-session-id": session } : {}),
            },
          },
          (res) => {
            let body = "";
            res.setEncoding("utf8").on("data", (c: string) => {
              body += c;
            });
            res.on("end", () => {
              const data = body.startsWith("{") ? body : /^data: (.*)$/m.exec(body)?.[1];
              resolve(data ? JSON.parse(data) : { status: res.statusCode, body });
            });
          },
        );
        req.on("error", reject);
        req.end(JSON.stringify(message));
      }),
    close: async () => agent.destroy(),
  };
}

/** Starts a process that prints `… on http://…/mcp` or `listening on http://…` to stderr; resolves with the URL. */
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
