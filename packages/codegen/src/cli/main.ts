import { Command } from "commander";
import { registerBuild } from "./build-command.ts";
import { registerChat } from "./chat-command.ts";
import { registerDiff } from "./diff-command.ts";
import { registerInit } from "./init-command.ts";
import { registerLint } from "./lint-command.ts";
import { registerPull } from "./pull-command.ts";
import { registerServe } from "./serve-command.ts";

/** The `mcp-gen` program: a thin shell over the library functions. */
export function createProgram(): Command {
  const program = new Command("mcp-gen")
    .description(
      "Schema-first codegen for MCP tools: TypeScript signatures → contract → validators, types, clients",
    )
    .showHelpAfterError()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  registerInit(program);
  registerBuild(program);
  registerPull(program);
  registerDiff(program);
  registerServe(program);
  registerChat(program);
  registerLint(program);
  return program;
}

export { withConfig } from "./options.ts";

export async function main(argv: string[]): Promise<void> {
  await createProgram().parseAsync(argv);
}
