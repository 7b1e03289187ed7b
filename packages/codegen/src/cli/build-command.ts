import { CODES } from "@mcp-gen/schema/diagnostics";
import type { Command } from "commander";
import type { BuildResult } from "../build.ts";
import { withConfig } from "./main.ts";
import { printDiagnostics, run } from "./report.ts";

interface BuildFlags {
  config?: string;
  check?: boolean;
  dumpIr?: boolean;
  watch?: boolean;
  server?: string[];
}

export function registerBuild(program: Command): void {
  withConfig(program.command("build"))
    .description("extract tools from TypeScript, write contracts to schemas/ and artifacts to generated/")
    .option("--check", "regenerate in memory and exit 1 if schemas/ or generated/ are stale")
    .option("--dump-ir", "print the intermediate representation and write nothing")
    .option("-s, --server <name...>", "only these servers")
    .option("-w, --watch", "rebuild on every change, re-extracting only what changed; errors do not stop it")
    .action((flags: BuildFlags) =>
      run(() => (flags.watch ? watch(flags) : flags.dumpIr ? dump(flags) : buildOrCheck(flags)), {
        writes: true,
      }),
    );
}

// The build is loaded on use: ts-morph takes a second to import, and `mcp-gen serve` must start fast.
async function dump(flags: BuildFlags): Promise<number> {
  const [{ generate }, { loadConfig }, { dumpIr }] = await Promise.all([
    import("../build.ts"),
    import("../config/load.ts"),
    import("../ir/dump.ts"),
  ]);
  const config = await loadConfig(flags.config ? { configFile: flags.config } : {});
  const result = await generate(config, flags.server);
  printDiagnostics(result.warnings);
  process.stdout.write(dumpIr(result.ir));
  return 0;
}

async function watch(flags: BuildFlags): Promise<number> {
  const { runWatch } = await import("./watch-command.ts");
  return runWatch(flags);
}

async function buildOrCheck(flags: BuildFlags): Promise<number> {
  const [{ build }, { changesAgainstCommitted, formatChanges }, { providerSummary }] = await Promise.all([
    import("../build.ts"),
    import("../diff/report.ts"),
    import("../emit/providers/report.ts"),
  ]);
  const result = await build({
    ...(flags.config ? { configFile: flags.config } : {}),
    ...(flags.server ? { servers: flags.server } : {}),
    check: flags.check ?? false,
  });
  printDiagnostics(result.warnings);
  return flags.check
    ? reportCheck(result, changesAgainstCommitted, formatChanges)
    : reportBuild(result, providerSummary(result.outputs.files));
}

function reportCheck(
  result: BuildResult,
  changesAgainstCommitted: typeof import("../diff/report.ts").changesAgainstCommitted,
  formatChanges: typeof import("../diff/report.ts").formatChanges,
): number {
  const tools = result.contracts.reduce((n, c) => n + c.contract.tools.length, 0);
  if (result.stale.length === 0) {
    process.stdout.write(
      `mcp-gen: up to date (${plural(result.contracts.length, "server")}, ${plural(tools, "tool")})\n`,
    );
    return 0;
  }
  process.stderr.write("error MCPG050: generated files are stale:\n");
  for (const s of result.stale) process.stderr.write(`  ${s.status.padEnd(7)} ${s.path}\n`);
  process.stderr.write("  fix: run `npx mcp-gen build` and commit the result\n");
  const built = result.contracts.filter((c) => c.source === "typescript");
  for (const { file, changes } of changesAgainstCommitted(built, result.config.root)) {
    const breaking = changes.filter((c) => c.breaking);
    if (breaking.length === 0) continue;
    process.stderr.write(`\nerror MCPG095: the new ${file} breaks clients of the committed one:\n`);
    process.stderr.write(formatChanges(breaking, "  "));
    process.stderr.write(`  fix: ${CODES.MCPG095.fix}\n`);
  }
  return 1;
}

function reportBuild(result: BuildResult, providers: string[]): number {
  for (const c of result.contracts) {
    const from = c.source === "typescript" ? "from TypeScript" : "from contract";
    const { contract } = c;
    const counts = [
      plural(contract.tools.length, "tool"),
      ...(contract.resources?.length ? [plural(contract.resources.length, "resource")] : []),
      ...(contract.resourceTemplates?.length
        ? [plural(contract.resourceTemplates.length, "resource template")]
        : []),
      ...(contract.prompts?.length ? [plural(contract.prompts.length, "prompt")] : []),
    ];
    process.stdout.write(`✓ ${contract.server}: ${counts.join(", ")} (${from})\n`);
  }
  for (const line of providers) process.stdout.write(`  ${line}\n`);
  process.stdout.write(
    result.changed.length === 0
      ? "mcp-gen: up to date, nothing written\n"
      : `mcp-gen: wrote ${plural(result.changed.length, "file")}\n`,
  );
  return 0;
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
