import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { codeBlocks, type Shown } from "../../../../scripts/docs/markers.ts";
import { REPO_ROOT, run } from "./run.ts";

/** Where the pages say the user's project is, in the desktop clients' entries. */
const SHOWN_PATH = "/path/to/calc";

/** The pages whose `<!-- client-config -->` JSON block is a Claude Desktop / Cursor entry. */
export const CLIENT_CONFIG_PAGES = ["docs/guide/serving.md"];

/** Where the getting-started page shows the Node that printed the entry. */
const SHOWN_NODE = "/usr/local/bin/node";

/** The command the getting-started page gives to print the desktop clients' entry for the project. */
const PRINT_ENTRY =
  "node -p 'JSON.stringify({ mcpServers: { calc: { command: process.execPath, args: [path.resolve(\"dist/src/server.js\")] } } }, null, 2)'";

export interface Entry {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

/** The `mcpServers` entries of the JSON block after each `<!-- client-config -->` marker of a page. */
export function clientEntries(page: string): Record<string, Entry> {
  const text = readFileSync(path.join(REPO_ROOT, page), "utf8");
  const marked = text.split("<!-- client-config -->").slice(1);
  if (marked.length === 0) throw new Error(`${page} has no <!-- client-config --> block`);
  const entries: Record<string, Entry> = {};
  for (const after of marked) {
    const block = codeBlocks(after)[0];
    if (block?.lang !== "json") throw new Error(`${page}: <!-- client-config --> is not followed by json`);
    const { mcpServers } = JSON.parse(block.code) as { mcpServers: Record<string, Entry> };
    Object.assign(entries, mcpServers);
  }
  return entries;
}

/**
 * Starts an entry as Claude Desktop and Cursor do (the command with its arguments, from another
 * folder, the default environment of the official SDK's stdio transport), with the page's project
 * path replaced by the real one; lists the tools and calls `add`.
 */
export async function launchEntry(
  entry: Entry,
  projectDir: string,
): Promise<{ tools: string[]; sum: unknown }> {
  const elsewhere = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-desktop-"));
  const real = (s: string) => s.replaceAll(SHOWN_PATH, projectDir);
  const transport = new StdioClientTransport({
    command: real(entry.command),
    args: (entry.args ?? []).map(real),
    cwd: elsewhere,
    stderr: "pipe",
    ...(entry.env ? { env: entry.env } : {}),
  });
  const client = new Client({ name: "desktop-client-check", version: "1.0.0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const result = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    return { tools: tools.map((t) => t.name), sum: result.structuredContent };
  } finally {
    await client.close();
    rmSync(elsewhere, { recursive: true, force: true });
  }
}

/**
 * The getting-started page's command that prints the Claude Desktop / Cursor entry, run in the
 * project: what it printed (the entries, to start them) and the transcript (the project shown as
 * `/path/to/calc`, the Node as `/usr/local/bin/node`).
 */
export async function desktopEntries(dir: string): Promise<{ entries: Record<string, Entry>; shown: Shown }> {
  const ran = await run("bash", ["-c", PRINT_ENTRY], { cwd: dir });
  if (ran.code !== 0) throw new Error(`${PRINT_ENTRY} failed (${ran.code}): ${ran.stderr}`);
  const { mcpServers } = JSON.parse(ran.stdout) as { mcpServers: Record<string, Entry> };
  const node = mcpServers.calc?.command ?? "";
  const text = ran.stdout
    .trim()
    .replaceAll(dir, SHOWN_PATH)
    .replaceAll(JSON.stringify(node), JSON.stringify(SHOWN_NODE));
  return { entries: mcpServers, shown: { lang: "console", text: `$ ${PRINT_ENTRY}\n${text}` } };
}

const NODE22 = path.join(REPO_ROOT, "node_modules/.cache/node22/node_modules/.bin/node");
const INSPECTOR = path.join(
  REPO_ROOT,
  "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
);

/**
 * The Inspector's CLI calling `add` of the project's compiled server, as the getting-started page
 * shows it (`npx @modelcontextprotocol/inspector --cli …`): the repository's Inspector (a
 * devDependency, the version the page names) on Node 22 (.ci/node22.sh), its stdout.
 */
export async function inspectorTranscript(dir: string): Promise<Shown> {
  const args = ["--cli", "node", "dist/src/server.js", "--method", "tools/call", "--tool-name", "add"];
  args.push("--tool-arg", "a=1", "--tool-arg", "b=2");
  if (!existsSync(NODE22)) throw new Error(`no Node 22 at ${NODE22} for the Inspector: source .ci/node22.sh`);
  const home = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-inspector-"));
  try {
    // the Inspector keeps a catalog under $HOME: a throwaway one
    const ran = await run(NODE22, [INSPECTOR, ...args], { cwd: dir, env: { HOME: home } });
    if (ran.code !== 0) throw new Error(`the Inspector failed (${ran.code}): ${ran.stderr}`);
    const line = `npx @modelcontextprotocol/inspector ${args.join(" ")}`;
    return { lang: "console", text: `$ ${line}\n${ran.stdout.trim()}` };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
