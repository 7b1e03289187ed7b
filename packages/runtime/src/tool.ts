/**
 * What a tool module imports from the runtime, without the server, the clients and the agent (and
 * the SDKs they import): the type-level tags, `ToolContext`, `ToolError` and the content helpers.
 * `import { ToolError, type Int } from "@mcp-gen/runtime/tool"` is the same as importing from
 * `@mcp-gen/runtime`; `mcp-gen build` reads tool modules that import only these names from the root
 * entry as if they imported this one.
 *
 * @example
 * import { type Int, type ToolContext, ToolError } from "@mcp-gen/runtime/tool";
 * export async function count_to(n: Int, ctx: ToolContext): Promise<Int> {
 *   if (n > 100) throw new ToolError("n must be at most 100");
 *   await ctx.log("info", `counting to ${n}`);
 *   return n;
 * }
 */
export {
  audio,
  content,
  image,
  isToolResult,
  type ResourceContents,
  resource,
  resourceLink,
  type ToolResult,
  text,
} from "./content.ts";
export { LOG_LEVELS, type LogLevel, type ToolContext } from "./context.ts";
export * from "./tags.ts";
export { ToolError } from "./tool-error.ts";
