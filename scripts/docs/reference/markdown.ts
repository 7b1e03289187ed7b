/**
 * Text from the code (descriptions, JSDoc, fixes) made safe for a VitePress page: outside code spans,
 * `<`, `>` and `{{` would be read as HTML or Vue, and `|` ends a table cell.
 */
export function inline(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("{{", "&#123;&#123;"),
    )
    .join("")
    .replaceAll("\n", " ")
    .replace(/(?<!\\)\|/g, "\\|");
}
