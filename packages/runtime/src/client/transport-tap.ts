import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";

/** A JSON-RPC response as the tap hands it over: the result, or the error. */
export type RawResponse =
  | { kind: "result"; result: Record<string, unknown> }
  | { kind: "error"; error: { code: number; message: string; data?: unknown } };

/** A notification the server sent. */
export interface RawNotification {
  method: string;
  params?: Record<string, unknown>;
}

/**
 * Requests and notifications beside an SDK `Client`, on its own transport: what the SDK's wire
 * codecs refuse (a 2026-07-28 `CreateTaskResult`, progress after a task's creating request was
 * answered) goes through here. Its requests have ids of their own (`mcp-gen-<n>`), so the
 * client never sees their responses.
 */
export interface TransportTap {
  /** Sends one request and resolves with its response (an error response resolves too). */
  dispatch(
    request: { method: string; params?: Record<string, unknown> },
    signal?: AbortSignal,
  ): Promise<RawResponse>;
  /**
   * Listens to the server's notifications; a listener returning `true` takes the notification
   * (the client does not see it).
   */
  onNotification(listener: (notification: RawNotification) => boolean | undefined): () => void;
}

/** The parts of an SDK `Client` the tap works with. */
export interface TappableClient {
  readonly transport?: Transport | undefined;
}

const taps = new WeakMap<Transport, TransportTap>();
let sequence = 0;

/**
 * The tap of a connected client's transport (one per transport, made on first use).
 *
 * @example
 * const tap = tapTransport(client);
 * const response = await tap.dispatch({ method: "tasks/get", params: { taskId } });
 */
export function tapTransport(client: TappableClient): TransportTap {
  const transport = client.transport;
  if (!transport) throw new Error("mcp-gen: the client is not connected");
  const existing = taps.get(transport);
  if (existing) return existing;
  const pending = new Map<string, (response: RawResponse) => void>();
  const listeners = new Set<(notification: RawNotification) => boolean | undefined>();
  const forward = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const m = message as {
      id?: unknown;
      method?: unknown;
      params?: Record<string, unknown>;
      result?: Record<string, unknown>;
      error?: { code: number; message: string; data?: unknown };
    };
    if (typeof m.id === "string" && m.method === undefined && pending.has(m.id)) {
      const settle = pending.get(m.id)!;
      pending.delete(m.id);
      settle(m.error ? { kind: "error", error: m.error } : { kind: "result", result: m.result ?? {} });
      return;
    }
    if (m.id === undefined && typeof m.method === "string") {
      const notification: RawNotification = { method: m.method, ...(m.params ? { params: m.params } : {}) };
      for (const listener of listeners) if (listener(notification)) return;
    }
    forward?.call(transport, message, extra);
  };
  const closed = transport.onclose;
  transport.onclose = () => {
    for (const settle of pending.values()) {
      settle({ kind: "error", error: { code: -32000, message: "Connection closed" } });
    }
    pending.clear();
    closed?.call(transport);
  };
  const tap: TransportTap = {
    dispatch(request, signal) {
      const id = `mcp-gen-${++sequence}`;
      return new Promise<RawResponse>((resolve, reject) => {
        const onAbort = () => {
          pending.delete(id);
          void transport
            .send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } })
            .catch(() => {});
          reject(signal?.reason ?? new Error("aborted"));
        };
        if (signal?.aborted) return onAbort();
        signal?.addEventListener("abort", onAbort, { once: true });
        pending.set(id, (response) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(response);
        });
        // A complete JSON-RPC request may come in (ext-tasks' raw dispatch): its id is replaced.
        const message = { ...request, jsonrpc: "2.0", id } as JSONRPCMessage;
        transport.send(message).catch((error: unknown) => {
          pending.delete(id);
          reject(error);
        });
      });
    },
    onNotification(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  taps.set(transport, tap);
  return tap;
}
