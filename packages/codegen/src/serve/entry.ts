import { Command } from "commander";
import { registerServe } from "../cli/serve-command.ts";
import { manifestFromModule, type ServerModule } from "./manifest-module.ts";

/**
 * What the fast-start bundle runs: the `serve` command of the CLI, with the generated server
 * module compiled into the bundle instead of loaded through the config.
 */
export async function serveBundled(argv: string[], module: ServerModule): Promise<void> {
  const program = new Command("mcp-gen").configureOutput({ writeErr: (s) => process.stderr.write(s) });
  registerServe(program, ({ server }) => manifestFromModule(module, `${server}/server.ts`));
  await program.parseAsync(argv);
}
