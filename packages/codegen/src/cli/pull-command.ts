import { diagnostic, McpGenError } from "@mcp-gen/schema/diagnostics";
import { type Command, InvalidArgumentError, Option } from "commander";
import { PULL_PROTOCOLS, type PullProtocol } from "../pull/protocols.ts";
import type { PullResult } from "../pull/pull.ts";
import { checkUrl, type PullSource, parseHeaders } from "../pull/source.ts";
import { withConfig } from "./main.ts";
import { oauthFromEnv } from "./oauth-env.ts";
import { printDiagnostics, run } from "./report.ts";

interface PullFlags {
  config?: string;
  url?: string;
  header: string[];
  timeout?: number;
  protocol?: PullProtocol;
  check?: boolean;
}

/**
 * `mcp-gen pull <name> -- <command…>` (stdio) or `mcp-gen pull <name> --url <url>` (Streamable
 * HTTP): writes the live server's tools to `schemas/<name>.tools.json`. Without a command or
 * URL it pulls again from where the contract says it came from.
 */
export function registerPull(program: Command): void {
  withConfig(program.command("pull"))
    .argument("<name>", "server name: the contract becomes schemas/<name>.tools.json")
    .argument("[command...]", "command that starts a stdio MCP server (after --)")
    .description("write the tools of a live MCP server (stdio command or Streamable HTTP URL) as a contract")
    .option("--url <url>", "Streamable HTTP endpoint of the server (e.g. http://127.0.0.1:3000/mcp)")
    .option("-H, --header <header>", 'HTTP header "Name: value" (repeatable)', collect, [])
    .option("--timeout <ms>", "time for starting, the handshake and listing tools, in milliseconds", whole)
    .addOption(
      new Option(
        "--protocol <protocol>",
        "MCP protocol to speak: auto (default) tries 2026-07-28, then 2025; legacy is 2025 only",
      ).choices(PULL_PROTOCOLS),
    )
    .option("--check", "compare the live server with the committed contract; exit 1 if it drifted")
    .action((name: string, command: string[], flags: PullFlags) =>
      run(
        async () => {
          const [{ pull }, changes] = await Promise.all([
            import("../pull/pull.ts"),
            import("../diff/report.ts"),
          ]);
          const headers = parseHeaders(flags.header);
          const oauth = await oauthFromEnv(process.env);
          if (!oauth.ok) throw new McpGenError(diagnostic("MCPG094", oauth.message));
          const result = await pull({
            name,
            ...sourceOf(command, flags, headers),
            headers,
            ...(oauth.create ? { authProvider: oauth.create() } : {}),
            ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
            ...(flags.protocol ? { protocol: flags.protocol } : {}),
            ...(flags.check ? { check: true } : {}),
            ...(flags.config ? { configFile: flags.config } : {}),
          });
          // A check only tells drift; the contract's warnings are the build's business.
          if (!flags.check) printDiagnostics(result.warnings);
          return report(result, changes);
        },
        { writes: true },
      ),
    );
}

function sourceOf(
  command: string[],
  flags: PullFlags,
  headers: Record<string, string>,
): { source?: PullSource } {
  if (command.length > 0 && flags.url) {
    throw new McpGenError(diagnostic("MCPG094", "give either a command (after --) or --url, not both"));
  }
  if (command.length > 0) return { source: { kind: "stdio", command: command[0]!, args: command.slice(1) } };
  if (flags.url) return { source: { kind: "http", url: checkUrl(flags.url), headers } };
  return {};
}

/** What `pull` prints; `changes` formats the contract changes (loaded with the command). */
function report(result: PullResult, changes: typeof import("../diff/report.ts")): number {
  const { formatChanges, summarizeChanges } = changes;
  const counted = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const { contract } = result;
  const count = [
    counted(contract.tools.length, "tool"),
    ...(contract.resources?.length ? [counted(contract.resources.length, "resource")] : []),
    ...(contract.resourceTemplates?.length
      ? [counted(contract.resourceTemplates.length, "resource template")]
      : []),
    ...(contract.prompts?.length ? [counted(contract.prompts.length, "prompt")] : []),
  ].join(", ");
  // Which protocol the server spoke: the contract is the same either way, the server's clients differ.
  const tools = `${count} over MCP ${result.protocol.version}`;
  const changed = result.changes.length > 0 ? ` (${summarizeChanges(result.changes)})` : "";
  switch (result.status) {
    case "up-to-date":
      process.stdout.write(`mcp-gen: ${result.file} matches the live server (${tools})\n`);
      return 0;
    case "drifted":
      printDiagnostics([
        diagnostic(
          "MCPG093",
          result.existed
            ? `the live server differs from ${result.file}${changed}`
            : `${result.file} does not exist yet`,
          { file: result.file },
        ),
      ]);
      process.stderr.write(formatChanges(result.changes, "  "));
      return 1;
    case "unchanged":
      process.stdout.write(`mcp-gen: ${result.file} is up to date (${tools}), nothing written\n`);
      return 0;
    default:
      process.stdout.write(`✓ ${result.contract.server}: ${tools} → ${result.file}${changed}\n`);
      process.stdout.write(formatChanges(result.changes, "  "));
      process.stdout.write("  next: npx mcp-gen build\n");
      return 0;
  }
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function whole(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value === 0)
    throw new InvalidArgumentError("not a positive whole number of milliseconds");
  return value;
}
