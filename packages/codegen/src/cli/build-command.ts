import type { Command } from "commander";
import { build, generate } from "../build.ts";
import { loadConfig } from "../config/load.ts";
import { dumpIr } from "../ir/dump.ts";
import { withConfig } from "./main.ts";
import { printDiagnostics, run } from "./report.ts";

export function registerBuild(program: Command): void {
  withConfig(program.command("build"))
    .description("extract tools from TypeScript, write contracts to schemas/ and artifacts to generated/")
    .option("--check", "regenerate in memory and exit 1 if schemas/ or generated/ are stale")
    .option("--dump-ir", "print the intermediate representation and write nothing")
    .option("-s, --server <name...>", "only these servers")
    .action((opts: { config?: string; check?: boolean; dumpIr?: boolean; server?: string[] }) =>
      run(async () => {
        const base = {
          ...(opts.config ? { configFile: opts.config } : {}),
          ...(opts.server ? { servers: opts.server } : {}),
        };
        if (opts.dumpIr) {
          const config = await loadConfig({ ...(opts.config ? { configFile: opts.config } : {}) });
          const result = await generate(config, opts.server);
          printDiagnostics(result.warnings);
          process.stdout.write(dumpIr(result.ir));
          return 0;
        }
        const result = await build({ ...base, check: opts.check ?? false });
        printDiagnostics(result.warnings);
        const servers = result.contracts.length;
        const tools = result.contracts.reduce((n, c) => n + c.contract.tools.length, 0);
        if (opts.check) {
          if (result.stale.length === 0) {
            process.stdout.write(`mcp-gen: up to date (${servers} servers, ${tools} tools)\n`);
            return 0;
          }
          process.stderr.write("error MCPG050: generated files are stale:\n");
          for (const s of result.stale) process.stderr.write(`  ${s.status.padEnd(7)} ${s.path}\n`);
          process.stderr.write("  fix: run `npx mcp-gen build` and commit the result\n");
          return 1;
        }
        for (const c of result.contracts) {
          process.stdout.write(
            `✓ ${c.contract.server}: ${c.contract.tools.length} tools (${c.source === "typescript" ? "from TypeScript" : "from contract"})\n`,
          );
        }
        process.stdout.write(
          result.changed.length === 0
            ? "mcp-gen: up to date, nothing written\n"
            : `mcp-gen: wrote ${result.changed.length} files\n`,
        );
        return 0;
      }),
    );
}
