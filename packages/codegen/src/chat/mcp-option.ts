import type { McpToolsOptions } from "@mcp-gen/runtime/agent";
import { diagnostic, McpGenError } from "@mcp-gen/schema";

/**
 * Parses `--mcp name=<command or url>`: an `http(s)://` URL is a Streamable HTTP endpoint,
 * anything else a command line (split like a shell does for quotes) started over stdio.
 *
 * @example
 * parseMcpOption("memory=npx -y @modelcontextprotocol/server-memory")
 * // → { name: "memory", stdio: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] } }
 */
export function parseMcpOption(option: string): McpToolsOptions {
  const eq = option.indexOf("=");
  const name = eq > 0 ? option.slice(0, eq).trim() : "";
  const target = eq > 0 ? option.slice(eq + 1).trim() : "";
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name) || target === "") {
    throw new McpGenError(
      diagnostic("MCPG081", `--mcp ${JSON.stringify(option)} is not name=<command or url>`, {
        fix: 'write --mcp memory="npx -y @modelcontextprotocol/server-memory" or --mcp github=http://127.0.0.1:3000/mcp (names: a-z A-Z 0-9 _ -)',
      }),
    );
  }
  if (/^https?:\/\//i.test(target)) return { name, url: target };
  const [command, ...args] = splitCommand(target);
  return { name, stdio: { command: command!, args, stderr: "inherit" } };
}

/** Splits a command line on spaces, honouring single and double quotes and backslash escapes. */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: '"' | "'" | undefined;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      started = true;
    } else if (/\s/.test(c)) {
      if (started || word) words.push(word);
      word = "";
      started = false;
    } else word += c;
  }
  if (started || word) words.push(word);
  return words;
}
