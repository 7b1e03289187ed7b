import type { ResourceContent, UserContent } from "../messages.ts";

/** What a provider adapter sends for a user block: text, or an image. */
export type WirePart = { type: "text"; text: string } | { type: "image"; mimeType: string; data: string };

/**
 * The blocks of a user message as text and images, the same for every provider: a resource
 * becomes a context block that names its URI and MIME type,
 * `<resource uri="test://a" mimeType="text/plain">\n…\n</resource>`, an image resource the two
 * tags with the image between them.
 */
export function wireParts(content: readonly UserContent[]): WirePart[] {
  return content.flatMap((block): WirePart[] => {
    if (block.type === "text") return [block];
    if (block.type === "image") return [{ type: "image", mimeType: block.mimeType, data: block.data }];
    return resourceParts(block);
  });
}

function resourceParts(resource: ResourceContent): WirePart[] {
  const open = openTag(resource);
  if (resource.image !== undefined && resource.mimeType !== undefined)
    return [
      { type: "text", text: open },
      { type: "image", mimeType: resource.mimeType, data: resource.image },
      { type: "text", text: "</resource>" },
    ];
  return [{ type: "text", text: resourceText(resource) }];
}

/** A resource as one text block (for assistant turns, which carry text only). */
export function resourceText(resource: ResourceContent): string {
  return `${openTag(resource)}\n${resource.text ?? ""}\n</resource>`;
}

function openTag(resource: ResourceContent): string {
  const mime = resource.mimeType !== undefined ? ` mimeType="${attribute(resource.mimeType)}"` : "";
  return `<resource uri="${attribute(resource.uri)}"${mime}>`;
}

function attribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}
