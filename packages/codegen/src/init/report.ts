import type { InitPlan } from "./plan.ts";

/**
 * The lines `mcp-gen init` prints on stdout: one per file (`written`, `skipped (reason)` or
 * `merged`, each detail indented below it), then the commands to run next.
 *
 * @example
 * process.stdout.write(formatInitReport(init({ dir: "." })));
 */
export function formatInitReport(plan: InitPlan): string {
  const lines = [`mcp-gen init: server "${plan.server}" in ${plan.dir}`];
  for (const file of plan.files) {
    const reason = file.reason ? ` (${file.reason})` : "";
    lines.push(`  ${file.status.padEnd(8)} ${file.path}${reason}`);
    for (const note of file.notes) lines.push(`             ${note}`);
  }
  lines.push("next:", ...plan.next.map((command) => `  ${command}`));
  return `${lines.join("\n")}\n`;
}

/** The warnings of a plan as `warning: what`, `  at where`, `  fix: how` blocks, for stderr. */
export function formatInitWarnings(plan: InitPlan): string {
  return plan.warnings
    .map((w) =>
      [`warning: ${w.message}`, ...(w.file ? [`  at ${w.file}`] : []), `  fix: ${w.fix}`, ""].join("\n"),
    )
    .join("\n");
}
