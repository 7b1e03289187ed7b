import type { IncomingMessage, ServerResponse } from "node:http";
import type { ResolvedHttpOptions } from "./options.ts";

/** What the health and readiness probes read. */
export interface ProbeState {
  options: ResolvedHttpOptions;
  /** The server is draining (SIGTERM behind a load balancer): both probes say so with 503. */
  draining: boolean;
  /** Where a failing `http.ready` check is reported. */
  onerror(error: Error): void;
}

/**
 * Answers `GET healthPath` (alive: 200, draining: 503) and `GET readyPath` (draining, then the
 * application's own check `http.ready`); `false` for any other request.
 */
export function answerProbe(req: IncomingMessage, res: ServerResponse, state: ProbeState): boolean {
  if (req.method !== "GET") return false;
  const path = (req.url ?? "").split("?")[0];
  if (path === state.options.healthPath) {
    send(res, state.draining ? 503 : 200, state.draining ? "draining" : "ok");
    return true;
  }
  if (path !== state.options.readyPath) return false;
  void readiness(state).then((status) => send(res, status === "ready" ? 200 : 503, status));
  return true;
}

async function readiness(state: ProbeState): Promise<"ready" | "draining" | "unavailable"> {
  if (state.draining) return "draining";
  const { ready } = state.options;
  if (!ready) return "ready";
  try {
    return (await ready()) ? "ready" : "unavailable";
  } catch (error) {
    state.onerror(error instanceof Error ? error : new Error(String(error)));
    return "unavailable";
  }
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify({ status: text }));
}
