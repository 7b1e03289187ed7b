import { Command } from "commander";

/**
 * The `mcp-gen` program without its commands: its name, description and how it reports errors.
 * `main.ts` registers every command on it; `serve-main.ts` only `serve`.
 */
export function baseProgram(): Command {
  return new Command("mcp-gen")
    .description(
      "Schema-first codegen for MCP tools: TypeScript signatures → contract → validators, types, clients",
    )
    .showHelpAfterError()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
}
