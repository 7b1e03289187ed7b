import { formatDiagnostic } from "@mcp-gen/schema/diagnostics";
import { TARGETS, type Target } from "@mcp-gen/schema/targets";
import type { Command } from "commander";
import type { LintReport } from "../lint/index.ts";
import { withConfig } from "./options.ts";
import { run } from "./report.ts";

interface LintFlags {
  config?: string;
  server?: string[];
  target?: string[];
  moved?: boolean;
  json?: boolean;
}

export function registerLint(program: Command): void {
  withConfig(program.command("lint"))
    .description("check every contract against MCP's tool rules and each target provider's rules")
    .option("-s, --server <name...>", "only these servers")
    .option("-t, --target <target...>", `only these targets (${TARGETS.join(", ")}; default: the config's)`)
    .option("--moved", "also list every constraint a target moved into a description")
    .option("--json", "print the report as JSON")
    .action((flags: LintFlags) => run(() => lint(flags)));
}

// Loaded on use: the lint pulls in ts-morph, and `mcp-gen serve` must start fast.
async function lint(flags: LintFlags): Promise<number> {
  const [{ loadConfig }, { lintProject }] = await Promise.all([
    import("../config/load.ts"),
    import("../lint/index.ts"),
  ]);
  const config = await loadConfig(flags.config ? { configFile: flags.config } : {});
  const unknown = (flags.target ?? []).filter((t) => !(TARGETS as readonly string[]).includes(t));
  if (unknown.length > 0) {
    process.stderr.write(`error: unknown target(s) ${unknown.join(", ")} (known: ${TARGETS.join(", ")})\n`);
    return 1;
  }
  const report = await lintProject(config, {
    ...(flags.server ? { servers: flags.server } : {}),
    ...(flags.target ? { targets: flags.target as Target[] } : {}),
  });
  const all = [...report.diagnostics, ...report.contracts.flatMap((c) => c.diagnostics)];
  const errors = all.filter((d) => d.severity === "error").length;
  if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else printReport(report, flags.moved ?? false);
  return errors > 0 ? 1 : 0;
}

function printReport(report: LintReport, moved: boolean): void {
  const out = (s: string) => process.stdout.write(s);
  for (const d of report.diagnostics) out(`${formatDiagnostic(d)}\n\n`);
  for (const c of report.contracts) {
    const counts = [
      plural(c.diagnostics.filter((d) => d.severity === "error").length, "error"),
      plural(c.diagnostics.filter((d) => d.severity === "warning").length, "warning"),
      `${plural(c.moved.length, "constraint")} moved`,
    ];
    out(`${c.file} (${c.server}, ${plural(c.tools, "tool")}): ${counts.join(", ")}\n`);
    for (const d of c.diagnostics) out(`${indent(formatDiagnostic(d))}\n`);
    if (moved)
      for (const m of c.moved)
        out(`  moved ${m.dialect} ${m.pointer} ${m.keyword} (${m.action}): ${m.text}\n`);
  }
  const all = [...report.diagnostics, ...report.contracts.flatMap((c) => c.diagnostics)];
  const tools = report.contracts.reduce((n, c) => n + c.tools, 0);
  out(
    `mcp-gen lint: ${plural(all.filter((d) => d.severity === "error").length, "error")}, ${plural(all.filter((d) => d.severity === "warning").length, "warning")} ` +
      `(${plural(report.contracts.length, "contract")}, ${plural(tools, "tool")}; targets: ${report.targets.join(", ") || "none"})\n`,
  );
}

const indent = (text: string) =>
  text
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
