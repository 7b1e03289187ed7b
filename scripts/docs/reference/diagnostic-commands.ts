import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The examples of the diagnostics a tool module cannot trigger (config, contracts, `pull`, `chat`,
 * `serve`, `init`, lint warnings): the folders of packages/codegen/test/docs/diagnostics, each a
 * project, the `mcp-gen` command run in it (`command.json`) and what it printed (`expected.txt`,
 * asserted by packages/codegen/test/docs/diagnostic-examples.test.ts).
 */
export interface CommandExample {
  dir: string;
  args: string[];
  before: string[][];
  show: string[];
  /** The diagnostic's lines as printed (indentation of `lint`'s report removed). */
  text: string;
}

export const COMMAND_FIXTURES = "packages/codegen/test/docs/diagnostics";

/** The command fixtures' examples by code (the folder's name). */
export function commandExamples(root: string): Map<string, CommandExample> {
  const base = path.join(root, COMMAND_FIXTURES);
  const found = new Map<string, CommandExample>();
  if (!existsSync(base)) return found;
  for (const code of readdirSync(base).sort()) {
    const dir = path.join(base, code);
    const expected = path.join(dir, "expected.txt");
    if (!existsSync(expected)) continue;
    const text = blockOf(readFileSync(expected, "utf8"), code);
    if (!text) continue;
    const command = JSON.parse(readFileSync(path.join(dir, "command.json"), "utf8")) as {
      args: string[];
      before?: string[][];
      show: string[];
    };
    found.set(code, { dir, args: command.args, before: command.before ?? [], show: command.show, text });
  }
  return found;
}

/** The first diagnostic of `code` in a command's output: its line, its `at` line if any, its `fix`. */
function blockOf(output: string, code: string): string | undefined {
  const lines = output.split("\n");
  const start = lines.findIndex((l) => new RegExp(`^\\s*(?:error|warning) ${code}: `).test(l));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^\s*fix: /.test(l));
  const block = lines.slice(start, end < 0 ? start + 1 : end + 1);
  const indent = /^\s*/.exec(block[0] as string)?.[0].length ?? 0;
  return block.map((l) => l.slice(indent)).join("\n");
}

/** A command line as a user types it (`$MCP_GEN` is `npx mcp-gen`). */
function commandLine(args: string[]): string {
  const words = args.map((a) =>
    a === "$MCP_GEN" ? "npx mcp-gen" : /^[\w./:=@-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`,
  );
  return `mcp-gen ${words.join(" ")}`;
}

const LANG: Record<string, string> = { ".json": "json", ".ts": "ts fragment" };

/** The project's files shown, the command, and the diagnostic it prints. */
export function commandExample(example: CommandExample, root: string): string[] {
  const lines: string[] = [];
  for (const file of example.show) {
    const at = path.join(example.dir, file);
    lines.push(
      `Input (\`${path.relative(root, at)}\`):`,
      "",
      `\`\`\`${LANG[path.extname(file)] ?? "text"}`,
      readFileSync(at, "utf8").trimEnd(),
      "```",
      "",
    );
  }
  const after = example.before.map((b) => `\`${commandLine(b)}\``).join(", then ");
  const run = `\`${commandLine(example.args)}\``;
  lines.push(
    `${after ? `After ${after}, ${run}` : run} prints${example.show.length ? "" : ` (in ${where(example)})`}:`,
    "",
    "```text",
    example.text,
    "```",
  );
  return lines;
}

function where(example: CommandExample): string {
  const files = readdirSync(example.dir).filter((f) => f !== "command.json" && f !== "expected.txt");
  return files.length ? `a project holding ${files.map((f) => `\`${f}\``).join(", ")}` : "an empty folder";
}
