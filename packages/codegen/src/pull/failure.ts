import { diagnostic, McpGenError } from "@mcp-gen/schema";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { PullSource } from "./source.ts";

/** What was seen of the server while talking to it. */
export interface Observed {
  /** Last lines of a stdio server's stderr. */
  stderr: string[];
  /** Parse errors of output that was not JSON-RPC. */
  badOutput: string[];
  /** The transport closed (a stdio server exited). */
  exited: boolean;
}

/** The server answers MCP but offers no usable tool list. */
export class NoTools extends Error {}

interface FailureContext {
  source: PullSource;
  observed: Observed;
  timedOut: boolean;
  timeoutMs: number;
  /** The command line or URL. */
  where: string;
}

/**
 * Turns whatever went wrong while pulling into one diagnostic that says which of the three
 * things happened — the server did not start (MCPG090), did not answer (MCPG091), or is not
 * an MCP server (MCPG092) — with what the server printed.
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
  if (ctx.timedOut || (error instanceof McpError && error.code === ErrorCode.RequestTimeout)) {
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
    const network = cause.cause?.code ?? cause.code;
    if (error instanceof TypeError && network) {
      return fail(
        "MCPG090",
        `nothing answers at ${ctx.where} (${network})`,
        "check the URL and that the server is running",
      );
    }
    if (error instanceof StreamableHTTPError) {
      const status = error.code !== undefined && error.code > 0 ? ` (HTTP ${error.code})` : "";
      const auth = error.code === 401 || error.code === 403;
      return fail(
        "MCPG092",
        `${ctx.where} did not accept the MCP request${status}: ${error.message}`,
        auth ? 'pass credentials with --header "Authorization: Bearer <token>"' : undefined,
      );
    }
  }
  if (error instanceof McpError) {
    return fail("MCPG092", `${ctx.where} answered with an MCP error: ${error.message}`);
  }
  const message = (error as Error)?.message ?? String(error);
  if (error instanceof NoTools) {
    return fail("MCPG092", `${ctx.where} offers no tools: ${message}`);
  }
  return fail("MCPG092", `${ctx.where} did not answer as an MCP server: ${message}`);
}

function isClosed(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.ConnectionClosed;
}

function stderrTail(observed: Observed): string {
  if (observed.stderr.length === 0) return "";
  return `\n  its stderr ended with:\n${observed.stderr.map((l) => `    | ${l}`).join("\n")}`;
}
