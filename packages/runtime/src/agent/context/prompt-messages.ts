import type { GetPromptResult } from "@modelcontextprotocol/client";
import type { AgentMessage, UserContent } from "../messages.ts";
import { resourceText } from "./render.ts";
import { type ResourceItem, resourceBlocks } from "./resource-content.ts";

type PromptContent = GetPromptResult["messages"][number]["content"];

/**
 * The messages of `prompts/get` as conversation messages. User turns: text as text, an image of a
 * type the model takes as an image, an embedded resource as a context block (`<resource uri …>`),
 * a resource link as a line naming it; audio, other images and binary resources as placeholders
 * naming their type and size. Assistant turns carry text only: an embedded text resource becomes
 * its context block, images and audio placeholders.
 *
 * @example
 * promptMessages({ messages: [{ role: "user", content: { type: "text", text: "Review this" } }] }, IMAGE_TYPES)
 * // → [{ role: "user", content: "Review this" }]
 */
export function promptMessages(result: GetPromptResult, imageTypes: readonly string[]): AgentMessage[] {
  return result.messages.map((message): AgentMessage => {
    const block = userBlock(message.content, imageTypes);
    if (message.role === "user")
      return { role: "user", content: block.type === "text" ? block.text : [block] };
    const userOnly = "the model is shown images in user turns only";
    const text =
      block.type === "text"
        ? block.text
        : block.type === "resource"
          ? resourceText(
              block.image === undefined
                ? block
                : {
                    ...block,
                    image: undefined,
                    text: notShown("image", block.mimeType, block.image, userOnly),
                  },
            )
          : notShown("image", block.mimeType, block.data, userOnly);
    return { role: "assistant", text, toolCalls: [] };
  });
}

function userBlock(content: PromptContent, imageTypes: readonly string[]): UserContent {
  switch (content.type) {
    case "text":
      return { type: "text", text: content.text };
    case "image":
      return imageTypes.includes(content.mimeType)
        ? { type: "image", mimeType: content.mimeType, data: content.data }
        : {
            type: "text",
            text: notShown(
              "image",
              content.mimeType,
              content.data,
              `the model takes ${imageTypes.join(", ")}`,
            ),
          };
    case "audio":
      return {
        type: "text",
        text: notShown("audio", content.mimeType, content.data, "the model takes no audio"),
      };
    case "resource":
      return resourceBlocks([content.resource as ResourceItem], { imageTypes, binary: "describe" })[0]!;
    case "resource_link": {
      const mime = content.mimeType ? `, ${content.mimeType}` : "";
      const about = content.description ? `: ${content.description}` : "";
      return { type: "text", text: `[resource link: ${content.name} (${content.uri}${mime})${about}]` };
    }
    default:
      return { type: "text", text: `[${(content as { type: string }).type} content not shown]` };
  }
}

/** The placeholder of an image or audio the model is not shown. */
function notShown(kind: "image" | "audio", mimeType: string | undefined, data: string, why: string): string {
  const bytes = Buffer.from(data, "base64").length;
  return `[${kind} not shown: ${mimeType ?? "untyped"}, ${bytes} bytes; ${why}]`;
}
