import type { Command } from "commander";
import { run } from "./report.ts";

interface DiffFlags {
  reportOnly?: boolean;
  json?: boolean;
}

/** `mcp-gen diff <old> <new>`: classifies the changes between two contract files; exit 1 on breaking ones. */
export function registerDiff(program: Command): void {
  program
    .command("diff")
    .argument("<old>", "the contract before (e.g. the committed schemas/<server>.tools.json)")
    .argument("<new>", "the contract after")
    .description("classify the changes between two contracts as breaking or not (exit 1 on breaking)")
    .option("--report-only", "print the changes but exit 0 even when some are breaking")
    .option("--json", "print the changes as JSON")
    .action((oldFile: string, newFile: string, flags: DiffFlags) =>
      run(async () => {
        // Loaded when the command runs: other commands (serve's start) do not pay for them.
        const [{ readContract }, { diffContracts }, { formatChanges, summarizeChanges }] = await Promise.all([
          import("../contract/read.ts"),
          import("../diff/diff.ts"),
          import("../diff/report.ts"),
        ]);
        const changes = diffContracts(readContract(oldFile), readContract(newFile));
        if (flags.json) process.stdout.write(`${JSON.stringify(changes, null, 2)}\n`);
        else {
          process.stdout.write(formatChanges(changes));
          process.stdout.write(
            changes.length === 0 ? "mcp-gen: no changes\n" : `mcp-gen: ${summarizeChanges(changes)}\n`,
          );
        }
        return changes.some((c) => c.breaking) && !flags.reportOnly ? 1 : 0;
      }),
    );
}
