import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { CODES } from "@mcp-gen/schema";
import { type CommandExample, commandExample, commandExamples } from "./diagnostic-commands.ts";
import { inline } from "./markdown.ts";

/** One diagnostic as a fixture's expected output prints it. */
interface Printed {
  code: string;
  text: string;
  file: string;
  /** The line it points at; 0 when it points into the contract the fixture makes (then: the whole module). */
  line: number;
}

const BLOCK = /^(?:error|warning) (MCPG\d{3}): [^\n]*\n {2}at ([^\n]+)\n {2}fix: [^\n]*$/gm;

/**
 * The diagnostics one expected-output file holds, with the source each points at: `file:line:col`,
 * or for a contract pointer (`schemas/x.tools.json /tools/1/name`) the fixture's `tools.ts`.
 */
function printedIn(expected: string, bases: string[]): Printed[] {
  const found: Printed[] = [];
  for (const m of readFileSync(expected, "utf8").matchAll(BLOCK)) {
    const at = /^(.+):(\d+):\d+$/.exec(m[2] as string);
    const candidates = at
      ? bases.map((b) => path.join(b, at[1] as string))
      : [path.join(bases[0] as string, "tools.ts")];
    const file = candidates.find((f) => existsSync(f));
    if (file) found.push({ code: m[1] as string, text: m[0], file, line: at ? Number(at[2]) : 0 });
  }
  return found;
}

/**
 * The example of each code: the first in the error fixtures, then in the golden fixtures' warnings,
 * then the command fixtures (what a tool module cannot trigger).
 */
export function diagnosticExamples(root: string): Map<string, Printed | CommandExample> {
  const found = new Map<string, Printed | CommandExample>(sourceExamples(root));
  for (const [code, example] of commandExamples(root)) if (!found.has(code)) found.set(code, example);
  return found;
}

function sourceExamples(root: string): Map<string, Printed> {
  const test = path.join(root, "packages/codegen/test");
  const all: Printed[] = [];
  for (const name of readdirSync(path.join(test, "errors")).sort()) {
    const dir = path.join(test, "errors", name);
    all.push(...printedIn(path.join(dir, "expected.txt"), [dir]));
  }
  for (const name of readdirSync(path.join(test, "fixtures")).sort()) {
    const warnings = path.join(test, "fixtures", name, "expected/warnings.txt");
    if (existsSync(warnings)) all.push(...printedIn(warnings, [path.join(test, "fixtures")]));
  }
  const first = new Map<string, Printed>();
  for (const p of all) if (!first.has(p.code)) first.set(p.code, p);
  return first;
}

/** "when" of each code, from the table of docs/errors.md. */
function whenColumn(root: string): Map<string, string> {
  const table = readFileSync(path.join(root, "docs/errors.md"), "utf8");
  const when = new Map<string, string>();
  for (const m of table.matchAll(/^\| (MCPG\d{3}) \| [a-z-]+ \| ((?:[^|\\]|\\.)+) \|/gm)) {
    when.set(m[1] as string, (m[2] as string).trim());
  }
  return when;
}

function excerpt(example: Printed, root: string): string[] {
  const source = readFileSync(example.file, "utf8").split("\n");
  if (example.line === 0) return shownWith(example, root, source.join("\n").trimEnd(), "the whole module");
  // the paragraph around the location: up to the blank line before it (at most 12 lines), down to
  // the blank line or the closing brace after it (at most 8)
  let from = example.line - 1;
  while (from > 0 && example.line - from < 12 && source[from - 1]?.trim()) from--;
  let to = example.line - 1;
  const closes = (line: string | undefined) => /^[}\]]/.test(line ?? "");
  while (to < source.length - 1 && to - example.line < 7 && source[to + 1]?.trim() && !closes(source[to]))
    to++;
  const shown = source
    .slice(from, to + 1)
    .join("\n")
    .trimEnd();
  return shownWith(example, root, shown, `lines ${from + 1}–${from + shown.split("\n").length}`);
}

/** The input, then what `mcp-gen build` prints for it. */
function shownWith(example: Printed, root: string, input: string, which: string): string[] {
  const lang = example.file.endsWith(".json")
    ? "json"
    : example.file.endsWith(".ts")
      ? "ts fragment"
      : "text";
  return [
    `Input (\`${path.relative(root, example.file)}\`, ${which}):`,
    "",
    `\`\`\`${lang}`,
    input,
    "```",
    "",
    "`mcp-gen build` prints:",
    "",
    "```text",
    example.text,
    "```",
  ];
}

/**
 * Every diagnostic code of the registry (packages/schema/src/diagnostics.ts), with when it is
 * reported, its fix, and, where the test fixtures trigger it, the input and the exact output.
 */
export function diagnosticsReference(root: string): string {
  const found = diagnosticExamples(root);
  const when = whenColumn(root);
  const lines = [
    "# Diagnostics",
    "",
    "Every problem `mcp-gen` reports has a stable code. Errors (`MCPG0nn`) stop the command with exit",
    "code 1 and nothing written; warnings (`MCPG1nn`) are printed and the build goes on. Each message",
    "names what is wrong and where (`file:line:col` in TypeScript sources, `file /json/pointer` in",
    "configs and contracts) and ends with a fix. Every code has an example: an input from the test",
    "suite's fixtures and the exact output the suite asserts for it.",
  ];
  for (const [code, { title, fix }] of Object.entries(CODES)) {
    lines.push("", `## ${code} ${title}`, "");
    const reported = when.get(code);
    if (reported) lines.push(`**When:** ${reported}`, "");
    lines.push(`**Fix:** ${inline(fix)}`);
    const example = found.get(code);
    if (example && "args" in example) lines.push("", ...commandExample(example, root));
    else if (example) lines.push("", ...excerpt(example, root));
  }
  return `${lines.join("\n")}\n`;
}
