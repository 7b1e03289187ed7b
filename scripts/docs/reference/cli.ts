import type { Argument, Command, Option } from "commander";
import { inline } from "./markdown.ts";

/** One Markdown table row; `|` and line breaks in cells are escaped. */
const row = (cells: string[]) => `| ${cells.map(inline).join(" | ")} |`;

function argumentRows(args: readonly Argument[]): string[] {
  if (args.length === 0) return [];
  return [
    "",
    "| argument | required | description |",
    "| --- | --- | --- |",
    ...args.map((a) =>
      row([`\`${a.name()}${a.variadic ? "..." : ""}\``, a.required ? "yes" : "no", a.description || ""]),
    ),
  ];
}

function optionDetails(option: Option): string {
  const details = [option.description];
  if (option.argChoices) details.push(`one of ${option.argChoices.map((c) => `\`${c}\``).join(", ")}`);
  if (option.defaultValue !== undefined) details.push(`default: \`${JSON.stringify(option.defaultValue)}\``);
  if (option.envVar) details.push(`env: \`${option.envVar}\``);
  return details.filter(Boolean).join("; ");
}

function optionRows(options: readonly Option[]): string[] {
  const shown = options.filter((o) => !o.hidden);
  if (shown.length === 0) return [];
  return [
    "",
    "| option | description |",
    "| --- | --- |",
    ...shown.map((o) => row([`\`${o.flags}\``, optionDetails(o)])),
  ];
}

/**
 * The CLI reference page, read from the commander program itself (every command, argument and
 * option as registered), so it lists exactly what `mcp-gen --help` would.
 */
export function cliReference(program: Command): string {
  const lines = [
    "# CLI reference",
    "",
    `${program.description()}.`,
    "",
    "Every command prints `error MCPGnnn: what`, `at file:line:col` (or `file /json/pointer`) and",
    "`fix: how` on failure and exits 1; see [Diagnostics](./diagnostics.md). `mcp-gen <command> --help`",
    "prints the same options.",
  ];
  for (const command of program.commands) {
    lines.push(
      "",
      `## mcp-gen ${command.name()}`,
      "",
      "```",
      `mcp-gen ${command.name()} ${command.usage()}`,
      "```",
      "",
      inline(`${command.description()}.`),
      ...argumentRows(command.registeredArguments),
      ...optionRows(command.options),
    );
  }
  return `${lines.join("\n")}\n`;
}
