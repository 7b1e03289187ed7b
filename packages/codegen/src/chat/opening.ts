import { type Agent, AgentError, type AgentMessage, type UserContent } from "@mcp-gen/runtime/agent";
import { diagnostic, McpGenError } from "@mcp-gen/schema";

/** What the first turn of `mcp-gen chat` is made of. */
export interface Opening {
  message?: string | undefined;
  /** `--resource` URIs, in order. */
  resources?: readonly string[] | undefined;
  /** `--prompt` name. */
  prompt?: string | undefined;
  /** `--prompt-arg name=value` values. */
  promptArgs?: readonly string[] | undefined;
}

/**
 * Checks the flags of the first turn before anything is loaded: a message or a prompt, and
 * prompt arguments as `name=value` (only with `--prompt`). Returns the prompt's arguments.
 *
 * @example
 * checkOpening({ prompt: "review", promptArgs: ["code=let x"] }) // → { code: "let x" }
 */
export function checkOpening(opening: Opening): Record<string, string> {
  const usage = (message: string) => new McpGenError(diagnostic("MCPG083", message));
  if (opening.message === undefined && opening.prompt === undefined)
    throw usage("mcp-gen chat needs a message, or --prompt <name> to start from a prompt");
  const args: Record<string, string> = {};
  for (const pair of opening.promptArgs ?? []) {
    if (opening.prompt === undefined)
      throw usage(`--prompt-arg ${JSON.stringify(pair)} needs --prompt <name>`);
    const eq = pair.indexOf("=");
    if (eq <= 0) throw usage(`--prompt-arg ${JSON.stringify(pair)} is not name=value`);
    args[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return args;
}

/**
 * The messages of the first turn: the `--resource`s read into one user message of context
 * blocks, then the `--prompt`'s messages, then the message. What the servers do not offer (or
 * cannot serve) is an `MCPG084` error, and nothing reaches the model. Reports each piece.
 */
export async function openingMessages(
  agent: Agent,
  opening: Opening & { report: (line: string) => void },
): Promise<AgentMessage[]> {
  const args = checkOpening(opening);
  try {
    const messages: AgentMessage[] = [];
    const attached: UserContent[] = [];
    for (const uri of opening.resources ?? []) {
      const read = await agent.attachResource(uri);
      for (const block of read.content as UserContent[])
        if (block.type === "resource")
          opening.report(`mcp-gen chat: resource ${block.uri} (${block.mimeType ?? "no MIME type"})`);
      attached.push(...(read.content as UserContent[]));
    }
    if (attached.length > 0) messages.push({ role: "user", content: attached });
    if (opening.prompt !== undefined) {
      const prompt = await agent.usePrompt(opening.prompt, args);
      opening.report(
        `mcp-gen chat: prompt ${opening.prompt} (${prompt.length} message${prompt.length === 1 ? "" : "s"})`,
      );
      messages.push(...prompt);
    }
    if (opening.message !== undefined) messages.push({ role: "user", content: opening.message });
    return messages;
  } catch (error) {
    if (!(error instanceof AgentError) || error.code === "tool-collision") throw error;
    const fix = FIXES[error.code];
    throw new McpGenError(diagnostic("MCPG084", error.message, fix ? { fix } : {}));
  }
}

const FIXES: Partial<Record<AgentError["code"], string>> = {
  "unknown-resource": "use a URI a server lists, or one matching a template (the error lists them)",
  "unknown-prompt": "use a prompt name the error lists (<server>__<prompt> when there are several servers)",
  "prompt-arguments":
    "pass each required argument as --prompt-arg name=value, and only those the prompt declares",
  "unsupported-content": "attach text, JSON or an image of a type the model takes",
  "resource-failed": "check that the server can read this resource",
  "prompt-failed": "check the prompt's arguments (the server's message says what it refused)",
  "prompt-collision": "give the --mcp servers names that keep their prompts apart",
};
