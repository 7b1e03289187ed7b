import { baseProgram } from "./program.ts";
import { registerServe } from "./serve-command.ts";

/**
 * `mcp-gen serve …` without the other commands: the bin takes this path when the first argument is
 * `serve`, so a server's start does not load the modules of build, pull, diff, init, lint and chat.
 * The command, its options and its help are the ones `main()` registers.
 *
 * @example
 * await serveMain(["node", "mcp-gen", "serve", "smart-home"]);
 */
export async function serveMain(argv: string[]): Promise<void> {
  const program = baseProgram();
  registerServe(program);
  await program.parseAsync(argv);
}
