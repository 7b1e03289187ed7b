import type { Command } from "commander";
import { registerBuild } from "./build-command.ts";
import { registerChat } from "./chat-command.ts";
import { registerDiff } from "./diff-command.ts";
import { registerInit } from "./init-command.ts";
import { registerLint } from "./lint-command.ts";
import { baseProgram } from "./program.ts";
import { registerPull } from "./pull-command.ts";
import { registerServe } from "./serve-command.ts";

/** The `mcp-gen` program: a thin shell over the library functions. */
export function createProgram(): Command {
  const program = baseProgram();
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
