import type { CallToolResult } from "@modelcontextprotocol/client";

/**
 * A tool result as the text the model reads: text blocks as they are, other blocks as a short
 * note, and the structured content's JSON when there is no text at all.
 */
export function resultText(result: CallToolResult): string {
  const parts = (result.content ?? []).map((block) => {
    switch (block.type) {
      case "text":
        return block.text;
      case "image":
      case "audio":
        return `[${block.type} ${block.mimeType}]`;
      case "resource":
        return "text" in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`;
      case "resource_link":
        return `[resource link ${block.uri}]`;
      default:
        return `[${(block as { type: string }).type}]`;
    }
  });
  if (parts.length > 0) return parts.join("\n");
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return result.isError ? "The tool failed without a message." : "(no output)";
}
