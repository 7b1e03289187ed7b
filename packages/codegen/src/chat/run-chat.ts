import { createInterface } from "node:readline/promises";
import {
  type AgentResult,
  allowAll,
  type CanUseTool,
  createAgent,
  formatEvent,
  mcpTools,
  type ToolSourceInput,
} from "@mcp-gen/runtime/agent";
import { diagnostic, McpGenError } from "@mcp-gen/schema";
import { oauthFromEnv } from "../cli/oauth-env.ts";
import { loadLocalTools } from "./local-tools.ts";
import { parseMcpOption } from "./mcp-option.ts";
import { type ChatProvider, chatModel } from "./model-option.ts";
import { checkOpening, openingMessages } from "./opening.ts";

/** What `mcp-gen chat` was asked to do. */
export interface ChatRequest {
  target: string;
  /** Optional with `prompt`. */
  message?: string;
  /** URIs of resources to read into the first turn (`--resource`). */
  resources?: string[];
  /** A prompt to start from (`--prompt`), with `name=value` arguments (`--prompt-arg`). */
  prompt?: string;
  promptArgs?: string[];
  configFile?: string;
  provider?: ChatProvider;
  model?: string;
  maxSteps?: number;
  yes?: boolean;
  mcp?: string[];
  router?: boolean;
  /** Code mode (`--code`): one `run_program` tool over every tool. */
  code?: boolean;
  /** `--code-final`: the model may end its turn from a program (`final: true`), its value the answer. */
  codeFinal?: boolean;
  timeoutMs?: number;
  system?: string;
}

/**
 * Runs one message through the agent with the target's tools in-process (and `--mcp` servers),
 * printing every step as a trace on stderr and the answer on stdout. Exit code 1 when the run
 * ended for another reason than the model's answer. `--resource`s and a `--prompt` are read
 * before the first model request; what the servers do not offer stops the chat (MCPG084).
 */
export async function runChat(request: ChatRequest): Promise<number> {
  const opening = {
    message: request.message,
    resources: request.resources,
    prompt: request.prompt,
    promptArgs: request.promptArgs,
  };
  checkOpening(opening);
  const model = chatModel({
    ...(request.provider ? { provider: request.provider } : {}),
    ...(request.model ? { model: request.model } : {}),
  });
  const oauth = await oauthFromEnv(process.env);
  if (!oauth.ok) throw new McpGenError(diagnostic("MCPG081", oauth.message));
  // OAuth (client credentials from the environment) for every HTTP server that asks for it.
  const external = (request.mcp ?? [])
    .map(parseMcpOption)
    .map((source) =>
      "url" in source && oauth.create ? { ...source, authProvider: oauth.create() } : source,
    );
  const local = await loadLocalTools({
    target: request.target,
    ...(request.configFile ? { configFile: request.configFile } : {}),
  });
  const err = (line: string) => process.stderr.write(`${line}\n`);
  const tools: ToolSourceInput[] = [
    local,
    ...external.map((source) =>
      mcpTools({
        ...source,
        onConnected: ({ protocolVersion }) =>
          err(`mcp-gen chat: ${source.name} speaks MCP ${protocolVersion ?? "(unknown)"}`),
      }),
    ),
  ];
  const agent = createAgent({
    model,
    tools,
    canUseTool: request.yes ? allowAll : askOnTerminal,
    ...(request.system ? { system: request.system } : {}),
    ...(request.maxSteps !== undefined ? { maxSteps: request.maxSteps } : {}),
    ...(request.router ? { router: true } : {}),
    ...(request.code || request.codeFinal
      ? {
          code: {
            ...(await (await import("../serve/code-compiler.ts")).codeCompiler()),
            ...(request.codeFinal ? { finalAnswer: true } : {}),
          },
        }
      : {}),
    ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
  });
  try {
    const tools = (await agent.tools()).length;
    err(`mcp-gen chat: ${model.provider} ${model.model}, ${tools} ${tools === 1 ? "tool" : "tools"}`);
    const messages = await openingMessages(agent, { ...opening, report: err });
    let result: AgentResult | undefined;
    for await (const event of agent.run(messages)) {
      const line = formatEvent(event);
      if (line) err(line);
      if (event.type === "final") result = event.result;
    }
    if (!result) return 1;
    if (result.text) process.stdout.write(`${result.text}\n`);
    // "answered": a program sent with final: true (--code-final) delivered the answer
    if (result.stopReason === "end_turn" || result.stopReason === "answered") return 0;
    err(`mcp-gen chat: stopped (${result.stopReason}) after ${result.steps} steps`);
    return 1;
  } finally {
    await agent.close();
  }
}

/** Asks on the terminal; without one (pipes, CI) destructive calls are refused. */
const askOnTerminal: CanUseTool = async (name, args) => {
  if (!process.stdin.isTTY) {
    return {
      behavior: "deny",
      reason: "not confirmed: the user runs mcp-gen chat without --yes and no terminal to ask on",
    };
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`Allow ${name} ${JSON.stringify(args)}? [y/N] `);
    return /^y(es)?$/i.test(answer.trim())
      ? { behavior: "allow" }
      : { behavior: "deny", reason: "the user declined" };
  } finally {
    rl.close();
  }
};
