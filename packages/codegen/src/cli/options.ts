import { type Command, Option } from "commander";

/** Adds the `--config` option every command takes. */
export function withConfig(command: Command): Command {
  return command.addOption(
    new Option("-c, --config <file>", "config file (default: nearest mcp-gen.config.* upwards)"),
  );
}
