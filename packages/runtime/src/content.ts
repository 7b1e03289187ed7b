import type {
  AudioContent,
  ContentBlock,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
} from "@modelcontextprotocol/server";

const TOOL_RESULT = Symbol.for("mcp-gen.tool-result");

/**
 * A tool result made of MCP content blocks (text, images, audio, resources) instead of
 * structured data. A tool declared to return `ToolResult` has no `outputSchema`; the
 * server sends its blocks as the result's `content`. Build one with `content()`,
 * `text()`, `image()`, `audio()`, `resource()` or `resourceLink()`.
 *
 * @example
 * import { content, image, type ToolResult } from "@mcp-gen/runtime";
 * export function snapshot(): ToolResult {
 *   return content("The camera sees:", image(pngBytes, "image/png"));
 * }
 */
export interface ToolResult {
  readonly [TOOL_RESULT]: true;
  /** The content blocks, in order. */
  readonly content: readonly ContentBlock[];
}

/** True when `value` was built by `content()` or one of the block helpers. */
export function isToolResult(value: unknown): value is ToolResult {
  return typeof value === "object" && value !== null && (value as ToolResult)[TOOL_RESULT] === true;
}

function result(blocks: readonly ContentBlock[]): ToolResult {
  return Object.freeze({ [TOOL_RESULT]: true as const, content: Object.freeze([...blocks]) });
}

/** Binary data as base64 (strings are taken to be base64 already). */
function base64(data: string | Uint8Array): string {
  return typeof data === "string" ? data : Buffer.from(data).toString("base64");
}

/**
 * Combines strings (as text blocks), blocks and other results into one result.
 *
 * @example
 * return content("Two pictures:", image(a, "image/png"), image(b, "image/png"));
 */
export function content(...parts: (string | ContentBlock | ToolResult)[]): ToolResult {
  const blocks: ContentBlock[] = [];
  for (const part of parts) {
    if (typeof part === "string") blocks.push({ type: "text", text: part });
    else if (isToolResult(part)) blocks.push(...part.content);
    else blocks.push(part);
  }
  return result(blocks);
}

/** A text block. @example return text("done"); */
export function text(value: string): ToolResult {
  return result([{ type: "text", text: value }]);
}

/** An image block from bytes or base64. @example return image(png, "image/png"); */
export function image(data: string | Uint8Array, mimeType: string): ToolResult {
  const block: ImageContent = { type: "image", data: base64(data), mimeType };
  return result([block]);
}

/** An audio block from bytes or base64. @example return audio(wav, "audio/wav"); */
export function audio(data: string | Uint8Array, mimeType: string): ToolResult {
  const block: AudioContent = { type: "audio", data: base64(data), mimeType };
  return result([block]);
}

/** What an embedded resource holds: text, or binary data (`blob`, bytes or base64). */
export type EmbeddedContents =
  | { uri: string; mimeType?: string; text: string }
  | { uri: string; mimeType?: string; blob: string | Uint8Array };

/**
 * An embedded resource block (the resource's contents travel inside the result).
 *
 * @example
 * return resource({ uri: "file:///notes.txt", mimeType: "text/plain", text: "hello" });
 */
export function resource(contents: EmbeddedContents): ToolResult {
  const inner =
    "text" in contents
      ? { ...contents }
      : {
          uri: contents.uri,
          ...(contents.mimeType ? { mimeType: contents.mimeType } : {}),
          blob: base64(contents.blob),
        };
  const block: EmbeddedResource = { type: "resource", resource: inner };
  return result([block]);
}

/**
 * A link to a resource the client can read or subscribe to (not its contents).
 *
 * @example
 * return resourceLink({ uri: "file:///report.pdf", name: "report.pdf", mimeType: "application/pdf" });
 */
export function resourceLink(link: Omit<ResourceLink, "type">): ToolResult {
  return result([{ ...link, type: "resource_link" } as ResourceLink]);
}

/**
 * One message of a prompt (`prompts/get`): a role and one content block (text, image, audio, an
 * embedded resource or a resource link). A function tagged `@prompt` returns a string (one user
 * message) or a `PromptMessage[]`, sent as it is.
 *
 * @example
 * import type { PromptMessage } from "@mcp-gen/runtime";
 * // JSDoc of the function: "Reviews code." and the tag `@prompt`
 * export function review(code: string): PromptMessage[] {
 *   return [{ role: "user", content: { type: "text", text: `Review:\n${code}` } }];
 * }
 */
export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
}
