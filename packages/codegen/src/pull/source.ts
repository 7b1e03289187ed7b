import type { Contract } from "@mcp-gen/schema";
import { diagnostic, McpGenError } from "@mcp-gen/schema/diagnostics";
import type { OAuthClientProvider } from "@modelcontextprotocol/client";

/** Where a server to pull from lives: a command started over stdio, or a Streamable HTTP endpoint. */
export type PullSource =
  | { kind: "stdio"; command: string; args: string[] }
  | { kind: "http"; url: string; headers: Record<string, string>; authProvider?: OAuthClientProvider };

/** What a pulled contract records of its source, so `pull <name>` and `pull --check` can run again. */
export type RecordedSource = NonNullable<NonNullable<Contract["x-mcp-gen"]>["pulledFrom"]>;

/** The command line or URL, as a person would type it. */
export function describeSource(source: PullSource): string {
  return source.kind === "stdio" ? [source.command, ...source.args].map(shellWord).join(" ") : source.url;
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The part of a source a contract records (header values may be secrets, so none are kept). */
export function recordSource(source: PullSource): RecordedSource {
  return source.kind === "stdio" ? { command: [source.command, ...source.args] } : { url: source.url };
}

/** The source a contract recorded, with headers given again on the command line. */
export function sourceFromRecord(record: unknown, headers: Record<string, string>): PullSource | undefined {
  if (record === null || typeof record !== "object") return undefined;
  const r = record as Record<string, unknown>;
  if (Array.isArray(r.command) && r.command.length > 0 && r.command.every((w) => typeof w === "string")) {
    const [command, ...args] = r.command as string[];
    return { kind: "stdio", command: command!, args };
  }
  if (typeof r.url === "string") return { kind: "http", url: r.url, headers };
  return undefined;
}

/** Parses repeated `--header "Name: value"` options. */
export function parseHeaders(list: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of list) {
    const colon = entry.indexOf(":");
    const name = colon > 0 ? entry.slice(0, colon).trim() : "";
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new McpGenError(
        diagnostic("MCPG094", `--header "${entry}" is not "Name: value"`, {
          fix: 'write each header as --header "Authorization: Bearer <token>"',
        }),
      );
    }
    headers[name] = entry.slice(colon + 1).trim();
  }
  return headers;
}

/** Checks a URL given with `--url` (http or https only). */
export function checkUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new McpGenError(diagnostic("MCPG094", `--url "${url}" is not a URL`));
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new McpGenError(
      diagnostic("MCPG094", `--url "${url}" must be http: or https: (Streamable HTTP)`, {
        fix: "for a local command, use `mcp-gen pull <name> -- <command…>` instead",
      }),
    );
  }
  return parsed.href;
}
