import { providerToolName as sentAs, TOOL_NAME_RULES } from "@mcp-gen/schema";

/** Separator between a source's name and its tool's name: `github__create_issue`. */
export const NAMESPACE_SEPARATOR = "__";

/**
 * A tool name every supported provider accepts (Anthropic and OpenAI: `^[a-zA-Z0-9_-]{1,64}$`),
 * made as `mcp-gen build` makes the names of its provider definitions: other characters become
 * `_`; a name longer than 64 characters keeps its start and ends with a short hash of the whole
 * name, so different long names stay different.
 *
 * @example
 * portableToolName("files.read-text") // → "files_read-text"
 */
export function portableToolName(name: string): string {
  return sentAs("anthropic", name);
}

/** The name a tool is offered under: its own, or `<source>__<tool>` when namespaced. */
export function exposedName(source: string, tool: string, namespaced: boolean): string {
  return portableToolName(namespaced ? `${source}${NAMESPACE_SEPARATOR}${tool}` : tool);
}

/** Whether a name meets the Anthropic and OpenAI rules as is. */
export function isProviderToolName(name: string): boolean {
  return TOOL_NAME_RULES.anthropic.test(name) && TOOL_NAME_RULES.openai.test(name);
}
