/**
 * RFC 6570 expansion of a URI template (`app://items/{id}{?q}`) with scalar values: what the typed
 * client does before `resources/read`. Undefined values are left out, as the RFC says.
 */
export function expandUriTemplate(template: string, values: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{([^{}]*)\}/g, (_, expression: string) => {
    const op = /^[+#./;?&]/.test(expression) ? expression[0]! : "";
    const spec = OPERATORS[op]!;
    const parts: string[] = [];
    for (const varspec of expression.slice(op.length).split(",")) {
      const match = /^([^:*]+)(?::(\d+)|\*)?$/.exec(varspec);
      if (!match) continue;
      const value = values[match[1]!];
      if (value === undefined || value === null) continue;
      let text = String(value);
      if (match[2]) text = [...text].slice(0, Number(match[2])).join("");
      const encoded = encode(text, spec.reserved);
      parts.push(
        spec.named ? (encoded === "" ? `${match[1]}${spec.empty}` : `${match[1]}=${encoded}`) : encoded,
      );
    }
    return parts.length === 0 ? "" : spec.first + parts.join(spec.sep);
  });
}

const OPERATORS: Record<
  string,
  { first: string; sep: string; named: boolean; empty: string; reserved: boolean }
> = {
  "": { first: "", sep: ",", named: false, empty: "", reserved: false },
  "+": { first: "", sep: ",", named: false, empty: "", reserved: true },
  "#": { first: "#", sep: ",", named: false, empty: "", reserved: true },
  ".": { first: ".", sep: ".", named: false, empty: "", reserved: false },
  "/": { first: "/", sep: "/", named: false, empty: "", reserved: false },
  ";": { first: ";", sep: ";", named: true, empty: "", reserved: false },
  "?": { first: "?", sep: "&", named: true, empty: "=", reserved: false },
  "&": { first: "&", sep: "&", named: true, empty: "=", reserved: false },
};

/** Percent-encodes all but unreserved characters (and, for `+`/`#`, reserved ones and `%XX`). */
function encode(text: string, reserved: boolean): string {
  if (!reserved)
    return encodeURIComponent(text).replace(
      /[!'()*]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
    );
  return text
    .split(/(%[0-9A-Fa-f]{2})/)
    .map((part, i) => (i % 2 === 1 ? part : encodeURI(part).replace(/%5B/g, "[").replace(/%5D/g, "]")))
    .join("");
}
