/** Arguments of a tool call after parsing, with the slips that were repaired. */
export type ParsedArguments =
  | { ok: true; value: unknown; repairs: string[] }
  | { ok: false; message: string };

/**
 * Parses the arguments a model sent, tolerating the JSON slips models make: a Markdown code
 * fence around the JSON, text before or after the object, trailing commas. Objects (Anthropic
 * `input`) pass through; empty text means no arguments. Nothing else is guessed: what still
 * does not parse is reported so the model can resend it.
 *
 * @example
 * parseToolArguments('```json\n{"query": "客厅 灯",}\n```');
 * // → { ok: true, value: { query: "客厅 灯" }, repairs: ["code fence", "trailing comma"] }
 */
export function parseToolArguments(raw: unknown): ParsedArguments {
  if (raw === undefined || raw === null) return { ok: true, value: {}, repairs: [] };
  if (typeof raw !== "string") return { ok: true, value: raw, repairs: [] };
  let text = raw.trim();
  if (text === "") return { ok: true, value: {}, repairs: [] };
  const first = tryParse(text);
  if (first.ok) return { ok: true, value: first.value, repairs: [] };

  const repairs: string[] = [];
  const fenced = /^```[\w-]*[ \t]*\r?\n?([\s\S]*?)\r?\n?```$/.exec(text);
  if (fenced) {
    text = fenced[1]!.trim();
    repairs.push("code fence");
  }
  const start = text.search(/[{[]/);
  const close = text[start] === "[" ? "]" : "}";
  const end = text.lastIndexOf(close);
  if (start > 0 || (end >= 0 && end < text.length - 1)) {
    if (start >= 0 && end > start) {
      text = text.slice(start, end + 1);
      repairs.push("surrounding text");
    }
  }
  const uncommaed = withoutTrailingCommas(text);
  if (uncommaed !== text) {
    text = uncommaed;
    repairs.push("trailing comma");
  }
  const second = tryParse(text);
  if (second.ok) return { ok: true, value: second.value, repairs };
  return {
    ok: false,
    message: `The arguments are not valid JSON (${second.error}). Send the arguments as one JSON object.`,
  };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** Drops commas that directly precede `}` or `]` (outside strings). */
function withoutTrailingCommas(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    if (c === ",") {
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j++;
      if (text[j] === "}" || text[j] === "]") continue;
    }
    out += c;
  }
  return out;
}
