import type { ReadResourceResult } from "@modelcontextprotocol/client";
import { AgentError } from "../errors.ts";
import type { ResourceContent } from "../messages.ts";

/** Images the Anthropic Messages and OpenAI Chat Completions APIs take: PNG, JPEG, GIF, WebP. */
export const IMAGE_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/** One item of `resources/read` contents (or a prompt's embedded resource). */
export type ResourceItem = ReadResourceResult["contents"][number];

/** How resource contents become blocks the model reads. */
export interface ResourceBlockOptions {
  /** Image types the model takes (`ModelProvider.imageTypes`). */
  imageTypes: readonly string[];
  /**
   * A blob that is neither text nor such an image: `error` (an `AgentError` "unsupported-content",
   * for resources the user attaches) or `describe` (a placeholder naming its type and size, for
   * resources a prompt embeds).
   */
  binary: "error" | "describe";
}

/**
 * Resource contents as context blocks: text as it is (JSON as its text), a blob of a text type
 * (`text/*`, JSON, XML, YAML …, or untyped valid UTF-8) decoded, a blob of an image type the
 * model takes as an image, any other blob an error or a described placeholder.
 *
 * @example
 * resourceBlocks([{ uri: "test://a", mimeType: "text/plain", text: "hi" }], { imageTypes: IMAGE_TYPES, binary: "error" })
 * // → [{ type: "resource", uri: "test://a", mimeType: "text/plain", text: "hi" }]
 */
export function resourceBlocks(
  contents: readonly ResourceItem[],
  options: ResourceBlockOptions,
): ResourceContent[] {
  return contents.map((item) => {
    const base = {
      type: "resource" as const,
      uri: item.uri,
      ...(item.mimeType !== undefined ? { mimeType: item.mimeType } : {}),
    };
    if ("text" in item && typeof item.text === "string") return { ...base, text: item.text };
    const blob = "blob" in item && typeof item.blob === "string" ? item.blob : "";
    const mime = item.mimeType;
    if (mime !== undefined && options.imageTypes.includes(mime)) return { ...base, image: blob };
    const bytes = Buffer.from(blob, "base64");
    const text = textOf(bytes, mime);
    if (text !== undefined) return { ...base, text };
    const what = `${mime ?? "untyped binary data"}, ${bytes.length} bytes`;
    if (options.binary === "describe") return { ...base, text: `[binary content not shown: ${what}]` };
    throw new AgentError(
      "unsupported-content",
      `resource "${item.uri}" is ${what}, which cannot be shown to the model: it takes text and images of ${options.imageTypes.join(", ")}`,
    );
  });
}

const TEXT_TYPES =
  /^(text\/.+|application\/(json|xml|javascript|ecmascript|x-javascript|typescript|yaml|x-yaml|toml|sql|graphql|x-sh|x-ndjson|ld\+json)|.+\/.+\+(json|xml|yaml))$/i;

/** The text of a blob of a text type, or of an untyped blob that is valid UTF-8 without NULs. */
function textOf(bytes: Buffer, mime: string | undefined): string | undefined {
  const type = mime === undefined ? undefined : mime.split(";")[0]!.trim();
  if (type !== undefined && !TEXT_TYPES.test(type)) return undefined;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return type === undefined && text.includes("\0") ? undefined : text;
  } catch {
    return undefined;
  }
}
