import { diagnostic, McpGenError } from "@mcp-gen/schema";
import {
  OAuthError,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import type { PullSource } from "./source.ts";

/** What was seen of the server while talking to it. */
export interface Observed {
  /** Last lines of a stdio server's stderr. */
  stderr: string[];
  /** Parse errors of output that was not JSON-RPC. */
  badOutput: string[];
  /** A stdio server exited (before pull closed the connection). */
  exited: boolean;
}

/** A fresh record for one connection attempt. */
export function observing(): Observed {
  return { stderr: [], badOutput: [], exited: false };
}

/** The server answers MCP but offers no usable tool list. */
export class NoTools extends Error {}

interface FailureContext {
  source: PullSource;
  /** The protocol version pull insisted on (`--protocol 2026-07-28`), if any. */
  pinned: string | undefined;
  observed: Observed;
  timedOut: boolean;
  timeoutMs: number;
  /** The command line or URL. */
  where: string;
}

/**
 * Turns whatever went wrong while pulling into one diagnostic that says which of the three
 * things happened — the server did not start (MCPG090), did not answer (MCPG091), or is not
 * an MCP server (MCPG092) — with what the server printed. `error` is what the SDK v2 client
 * threw: a `ProtocolError` (the server answered with a JSON-RPC error), an `SdkError` (timeout,
 * closed connection, failed era negotiation), an `SdkHttpError` (an HTTP status), a spawn error
 * (`ENOENT`), a `fetch` failure, or pull's own `NoTools`.
 */
export function explainFailure(error: unknown, ctx: FailureContext): McpGenError {
  const { observed } = ctx;
  const fail = (code: "MCPG090" | "MCPG091" | "MCPG092", message: string, fix?: string) =>
    new McpGenError(diagnostic(code, `${message}${stderrTail(observed)}`, fix ? { fix } : {}));
  const cause = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  if (observed.badOutput.length > 0 && (ctx.timedOut || observed.exited || isClosed(error))) {
    return fail(
      "MCPG092",
      `${ctx.where} is not an MCP server: it wrote something that is not JSON-RPC to stdout (${observed.badOutput[0]})`,
    );
  }
  if (ctx.timedOut || (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)) {
    return fail(
      "MCPG091",
      `${ctx.where} did not answer the MCP handshake and tools/list within ${ctx.timeoutMs} ms`,
    );
  }
  if (ctx.source.kind === "stdio") {
    if (cause.code === "ENOENT") {
      return fail(
        "MCPG090",
        `cannot start "${ctx.source.command}": command not found`,
        "check the command is installed and on PATH (or give its path)",
      );
    }
    if (cause.code === "EACCES")
      return fail("MCPG090", `cannot start "${ctx.source.command}": permission denied`);
    if (isClosed(error) || observed.exited) {
      return fail("MCPG090", `${ctx.where} exited before it finished the MCP handshake`);
    }
  } else {
    const network = networkCode(error);
    if (network) {
      return fail(
        "MCPG090",
        `nothing answers at ${ctx.where} (${network})`,
        "check the URL and that the server is running",
      );
    }
    if (error instanceof OAuthError || error instanceof UnauthorizedError) {
      return fail(
        "MCPG092",
        `${ctx.where} needs authorization, which failed: ${error.message}`,
        "check MCP_GEN_OAUTH_CLIENT_ID, MCP_GEN_OAUTH_CLIENT_SECRET and MCP_GEN_OAUTH_ISSUER, and that the authorization server grants this client the scopes the server asks for (MCP_GEN_OAUTH_SCOPE)",
      );
    }
    if (error instanceof SdkHttpError) {
      const auth = error.status === 401 || error.status === 403;
      // The SDK's message may end with the status too ("… (HTTP 401)"): say it once.
      const message = error.message.replace(` (HTTP ${error.status})`, "");
      return fail(
        "MCPG092",
        `${ctx.where} did not accept the MCP request (HTTP ${error.status}): ${message}`,
        auth
          ? 'pass credentials with --header "Authorization: Bearer <token>", or for OAuth client credentials set MCP_GEN_OAUTH_CLIENT_ID, MCP_GEN_OAUTH_CLIENT_SECRET and MCP_GEN_OAUTH_ISSUER'
          : undefined,
      );
    }
  }
  if (ctx.pinned && error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed) {
    return fail(
      "MCPG092",
      `${ctx.where} does not speak MCP ${ctx.pinned}: ${error.message}`,
      "pull with --protocol auto to accept a server of the 2025 protocol as well",
    );
  }
  if (error instanceof ProtocolError) {
    return fail("MCPG092", `${ctx.where} answered with an MCP error: ${error.message}`);
  }
  const message = (error as Error)?.message ?? String(error);
  if (error instanceof NoTools) {
    return fail("MCPG092", `${ctx.where} offers no tools: ${message}`);
  }
  return fail("MCPG092", `${ctx.where} did not answer as an MCP server: ${message}`);
}

function isClosed(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed;
}

/**
 * The system error code (`ECONNREFUSED`, `ENOTFOUND` …) of a `fetch` that reached nothing. The
 * SDK passes the `TypeError: fetch failed` on as it is, or wraps it (a failed `server/discover`
 * probe is an `SdkError` whose cause it is); the code is on the `TypeError`'s cause.
 */
function networkCode(error: unknown): string | undefined {
  for (let link = error, depth = 0; link instanceof Error && depth < 4; link = link.cause, depth++) {
    if (!(link instanceof TypeError)) continue;
    const code =
      (link.cause as NodeJS.ErrnoException | undefined)?.code ?? (link as NodeJS.ErrnoException).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

function stderrTail(observed: Observed): string {
  if (observed.stderr.length === 0) return "";
  return `\n  its stderr ended with:\n${observed.stderr.map((l) => `    | ${l}`).join("\n")}`;
}
