import { type Command, InvalidArgumentError, Option } from "commander";
import type { ChatProvider } from "../chat/model-option.ts";
import { withConfig } from "./main.ts";
import { run } from "./report.ts";

interface ChatFlags {
  config?: string;
  provider?: ChatProvider;
  model?: string;
  maxSteps?: number;
  yes?: boolean;
  mcp?: string[];
  router?: boolean;
  code?: boolean;
  codeFinal?: boolean;
  timeout?: number;
  system?: string;
  resource?: string[];
  prompt?: string;
  promptArg?: string[];
}

/**
 * `mcp-gen chat <server|contract> "<message>"`: the agent loop on a server's generated tools,
 * run in-process, plus any MCP servers named with `--mcp`; a trace of every step on stderr, the
 * answer on stdout. `--resource <uri>` reads resources into the first turn, `--prompt <name>`
 * (with `--prompt-arg name=value`) starts from a prompt.
 */
export function registerChat(program: Command): void {
  withConfig(program.command("chat"))
    .argument(
      "<server|contract>",
      "server name from the config, or its contract file (schemas/<server>.tools.json)",
    )
    .argument("[message]", "what to ask (optional with --prompt)")
    .description(
      "chat with a model that uses a server's tools (API key from ANTHROPIC_API_KEY or OPENAI_API_KEY)",
    )
    .addOption(
      new Option("--provider <provider>", "model provider (default: the one whose API key is set)").choices([
        "anthropic",
        "openai",
      ]),
    )
    .option("-m, --model <model>", "model id (default: claude-sonnet-5-5 / gpt-5.4)")
    .option("--max-steps <n>", "model requests at most (default 20)", whole)
    .option("-y, --yes", "allow destructive tools without asking")
    .option(
      "--mcp <name=command|url...>",
      "also use an MCP server: a command started over stdio, or an http(s) URL",
    )
    .option("--router", "offer one mcp_query tool instead of every tool")
    .addOption(
      new Option(
        "--code",
        "offer one run_program tool: the model writes a program against every tool, type-checked, then run in a sandbox",
      ).conflicts("router"),
    )
    .addOption(
      new Option(
        "--code-final",
        "with --code: the model may end its turn from a program (final: true), whose value is the answer",
      ).conflicts("router"),
    )
    .option("--timeout <ms>", "time limit of each tool call in milliseconds (default 60000)", whole)
    .option("--system <prompt>", "system prompt")
    .option("--resource <uri>", "read a resource of the servers into the first turn (repeatable)", collect)
    .option("--prompt <name>", "start from a prompt of the servers (<server>__<prompt> with several)")
    .option("--prompt-arg <name=value>", "an argument of the --prompt (repeatable)", collect)
    .action((target: string, message: string | undefined, flags: ChatFlags) =>
      run(async () => {
        const { runChat } = await import("../chat/run-chat.ts");
        return runChat({
          target,
          ...(message !== undefined ? { message } : {}),
          ...(flags.resource ? { resources: flags.resource } : {}),
          ...(flags.prompt !== undefined ? { prompt: flags.prompt } : {}),
          ...(flags.promptArg ? { promptArgs: flags.promptArg } : {}),
          ...(flags.config ? { configFile: flags.config } : {}),
          ...(flags.provider ? { provider: flags.provider } : {}),
          ...(flags.model ? { model: flags.model } : {}),
          ...(flags.maxSteps !== undefined ? { maxSteps: flags.maxSteps } : {}),
          ...(flags.yes ? { yes: true } : {}),
          ...(flags.mcp ? { mcp: flags.mcp } : {}),
          ...(flags.router ? { router: true } : {}),
          ...(flags.code ? { code: true } : {}),
          ...(flags.codeFinal ? { codeFinal: true } : {}),
          ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
          ...(flags.system ? { system: flags.system } : {}),
        });
      }),
    );
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function whole(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value === 0)
    throw new InvalidArgumentError("not a positive whole number");
  return value;
}
