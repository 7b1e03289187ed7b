/**
 * The markers that keep the docs' examples true (README.md and the site's pages):
 * - `<!-- write:PATH -->` then a code block: the block is the file PATH of the docs' project;
 * - `<!-- file:PATH -->…<!-- /file -->`: filled with that project file as the run left it;
 * - `<!-- transcript:NAME -->…<!-- /transcript -->`: filled with what step NAME printed.
 * And every code block, with its language, meta (`ts fragment`) and line, for the compile check.
 */

/** A fenced code block of a Markdown file. */
export interface CodeBlock {
  lang: string;
  meta: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** Output of one transcript step, shown in a block of this language. */
export interface Shown {
  lang: string;
  text: string;
}

export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*(.*)$/.exec(lines[i] as string);
    if (!open?.[1]) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== "```"; i++) body.push(lines[i] as string);
    blocks.push({ lang: open[1], meta: open[2] ?? "", code: `${body.join("\n")}\n`, line: start + 1 });
  }
  return blocks;
}

/** The files `<!-- write:PATH -->` blocks define, by path. */
export function writtenFiles(markdown: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const m of markdown.matchAll(/^<!-- write:(\S+) -->\n```\w*\n([\s\S]*?)^```$/gm)) {
    files[m[1] as string] = m[2] as string;
  }
  return files;
}

const fence = (lang: string, text: string) => `\`\`\`${lang}\n${text.trimEnd()}\n\`\`\``;

/**
 * The Markdown with every `file:` and `transcript:` marker filled from the run. A marker the run did
 * not produce is an error naming it, so a renamed step cannot leave a page silently stale.
 */
export function fillMarkers(
  markdown: string,
  run: { files: Record<string, string>; transcripts: Record<string, Shown> },
): string {
  return markdown
    .replace(/^<!-- file:(\S+) -->\n[\s\S]*?^<!-- \/file -->$/gm, (_, file: string) => {
      const text = run.files[file];
      if (text === undefined) throw new Error(`no project file ${file} for <!-- file:${file} -->`);
      const named = text.startsWith(`// ${file}\n`) ? text : `// ${file}\n${text}`;
      return `<!-- file:${file} -->\n${fence("ts", named)}\n<!-- /file -->`;
    })
    .replace(/^<!-- transcript:(\S+) -->\n[\s\S]*?^<!-- \/transcript -->$/gm, (_, name: string) => {
      const shown = run.transcripts[name];
      if (!shown) throw new Error(`no transcript step ${name} for <!-- transcript:${name} -->`);
      return `<!-- transcript:${name} -->\n${fence(shown.lang, shown.text)}\n<!-- /transcript -->`;
    });
}

/** JSON as people format it: a value that fits on one line of `width` characters stays on one. */
export function readableJson(value: unknown, indent = "", width = 100): string {
  const inline = (v: unknown): string => {
    if (Array.isArray(v)) return `[${v.map(inline).join(", ")}]`;
    if (v && typeof v === "object") {
      const entries = Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`);
      return entries.length ? `{ ${entries.join(", ")} }` : "{}";
    }
    return JSON.stringify(v);
  };
  const one = inline(value);
  if (indent.length + one.length <= width || !value || typeof value !== "object") return one;
  const inner = `${indent}  `;
  if (Array.isArray(value))
    return `[\n${value.map((v) => inner + readableJson(v, inner, width)).join(",\n")}\n${indent}]`;
  const entries = Object.entries(value).map(
    ([k, v]) => `${inner}${JSON.stringify(k)}: ${readableJson(v, inner, width)}`,
  );
  return `{\n${entries.join(",\n")}\n${indent}}`;
}
