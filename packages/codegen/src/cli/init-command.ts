import type { Command } from "commander";
import { run } from "./report.ts";

interface InitFlags {
  dir?: string;
  name?: string;
}

/**
 * `mcp-gen init [--dir <path>] [--name <name>]`: sets up an mcp-gen project in an empty folder or
 * an existing npm package. Never overwrites a file; says which it wrote, skipped or merged.
 */
export function registerInit(program: Command): void {
  program
    .command("init")
    .description("set up a project: config, an example tool, a server entry, a test, scripts, tsconfig")
    .option("-d, --dir <path>", "the project folder (default: the working directory; created when missing)")
    .option("-n, --name <name>", "the server name (default: from package.json's name or the folder's)")
    .action((flags: InitFlags) => run(() => initProject(flags), { writes: true }));
}

// Loaded on use, like the build: every command starts through this file, `mcp-gen serve` must start fast.
async function initProject(flags: InitFlags): Promise<number> {
  const [{ init }, { formatInitReport, formatInitWarnings }] = await Promise.all([
    import("../init/init.ts"),
    import("../init/report.ts"),
  ]);
  const plan = init({
    ...(flags.dir !== undefined ? { dir: flags.dir } : {}),
    ...(flags.name !== undefined ? { name: flags.name } : {}),
  });
  process.stdout.write(formatInitReport(plan));
  process.stderr.write(formatInitWarnings(plan));
  return 0;
}
