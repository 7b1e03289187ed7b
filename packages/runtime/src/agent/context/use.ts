import { ProtocolError } from "@modelcontextprotocol/client";
import { AgentError } from "../errors.ts";
import type { AgentMessage, UserMessage } from "../messages.ts";
import type { ContextCatalog } from "./catalog.ts";
import { promptMessages } from "./prompt-messages.ts";
import { resourceBlocks } from "./resource-content.ts";

/** What reading into the conversation needs besides the catalog. */
export interface UseOptions {
  imageTypes: readonly string[];
  signal?: AbortSignal | undefined;
}

/**
 * Reads a resource through the source that serves its URI and makes it a user message of
 * context blocks (one per content item). A blob the model cannot be shown is an error.
 */
export async function readAsMessage(
  catalog: ContextCatalog,
  uri: string,
  options: UseOptions,
): Promise<UserMessage> {
  const { source, context } = catalog.resource(uri);
  const read = await context
    .readResource(uri, options.signal ? { signal: options.signal } : {})
    .catch((error: unknown) => {
      options.signal?.throwIfAborted();
      throw new AgentError(
        "resource-failed",
        `reading "${uri}" from "${source}" failed: ${describe(error)}`,
        {
          cause: error,
        },
      );
    });
  if (read.contents.length === 0)
    throw new AgentError("resource-failed", `reading "${uri}" from "${source}" returned no contents`);
  return {
    role: "user",
    content: resourceBlocks(read.contents, { imageTypes: options.imageTypes, binary: "error" }),
  };
}

/**
 * Gets a prompt (after checking the arguments against those it declares) and returns its
 * messages as conversation messages.
 */
export async function promptAsMessages(
  catalog: ContextCatalog,
  name: string,
  args: Readonly<Record<string, string>>,
  options: UseOptions,
): Promise<AgentMessage[]> {
  const { offered, context } = catalog.prompt(name);
  const declared = offered.prompt.arguments ?? [];
  const missing = declared.filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
  const unknown = Object.keys(args).filter((key) => !declared.some((a) => a.name === key));
  if (missing.length > 0 || unknown.length > 0) {
    const takes =
      declared.length === 0
        ? "takes no arguments"
        : `takes ${declared.map((a) => `${a.name}${a.required ? " (required)" : ""}`).join(", ")}`;
    const problems = [
      ...(missing.length > 0 ? [`missing ${missing.join(", ")}`] : []),
      ...(unknown.length > 0 ? [`unknown ${unknown.join(", ")}`] : []),
    ];
    throw new AgentError("prompt-arguments", `prompt "${name}" ${takes}: ${problems.join("; ")}`);
  }
  const result = await context
    .getPrompt(offered.prompt.name, args, options.signal ? { signal: options.signal } : {})
    .catch((error: unknown) => {
      options.signal?.throwIfAborted();
      throw new AgentError(
        "prompt-failed",
        `getting prompt "${name}" from "${offered.source}" failed: ${describe(error)}`,
        { cause: error },
      );
    });
  return promptMessages(result, options.imageTypes);
}

function describe(error: unknown): string {
  if (error instanceof ProtocolError) return `MCP error ${error.code}: ${error.message}`;
  return (error as Error).message;
}
