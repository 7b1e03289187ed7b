/**
 * `@mcp-gen/runtime`: the tool vocabulary — what a tool module imports: the type-level tags,
 * `ToolContext`, `ToolError` and the content helpers. It loads no SDK. The server, the clients, the
 * agent and each model provider have their own entries (`@mcp-gen/runtime/server`, `/client`,
 * `/agent`, `/anthropic`, `/openai`), and generated code imports the one it needs.
 *
 * @example
 * import { type Int, type ToolContext, ToolError } from "@mcp-gen/runtime";
 * export async function count_to(n: Int, ctx: ToolContext): Promise<Int> {
 *   if (n > 100) throw new ToolError("n must be at most 100");
 *   await ctx.log("info", `counting to ${n}`);
 *   return n;
 * }
 */
export {
  audio,
  content,
  type EmbeddedContents,
  image,
  isToolResult,
  type PromptMessage,
  resource,
  resourceLink,
  type ToolResult,
  text,
} from "./content.ts";
export {
  type AuthPrincipal,
  type InputOptions,
  LOG_LEVELS,
  type LogLevel,
  type ToolContext,
  type UrlElicitation,
} from "./context.ts";
export * from "./tags.ts";
export { ToolError } from "./tool-error.ts";
