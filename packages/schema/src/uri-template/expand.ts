import { type ParsedUriTemplate, parseUriTemplateOrThrow, type UriTemplateOperator } from "./parse.ts";

/** How each operator expands (RFC 6570 appendix A). */
const RULES: Record<
  UriTemplateOperator,
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

/**
 * RFC 6570 expansion with scalar values (strings, numbers, booleans): what a typed client does
 * before `resources/read`. Undefined and null values are left out, as the RFC says; a malformed
 * template throws (naming it and its problem).
 *
 * @example
 * expandUriTemplate("app://items/{id}{?q}", { id: 7, q: "a b" }); // "app://items/7?q=a%20b"
 */
export function expandUriTemplate(
  template: string | ParsedUriTemplate,
  values: Readonly<Record<string, unknown>>,
): string {
  const parsed = typeof template === "string" ? parseUriTemplateOrThrow(template) : template;
  let uri = "";
  for (const part of parsed.parts) {
    if (part.kind === "literal") {
      uri += part.text;
      continue;
    }
    const rule = RULES[part.operator];
    const expanded: string[] = [];
    for (const variable of part.variables) {
      const value = values[variable.name];
      if (value === undefined || value === null) continue;
      let text = String(value);
      if (variable.prefix !== undefined) text = [...text].slice(0, variable.prefix).join("");
      const encoded = encode(text, rule.reserved);
      if (!rule.named) expanded.push(encoded);
      else expanded.push(encoded === "" ? `${variable.name}${rule.empty}` : `${variable.name}=${encoded}`);
    }
    if (expanded.length > 0) uri += rule.first + expanded.join(rule.sep);
  }
  return uri;
}

/** Percent-encodes all but unreserved characters (and, for `+`/`#`, reserved ones and `%XX`). */
function encode(text: string, reserved: boolean): string {
  if (!reserved) {
    return encodeURIComponent(text).replace(
      /[!'()*]/g,
      (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
    );
  }
  return text
    .split(/(%[0-9A-Fa-f]{2})/)
    .map((part, i) => (i % 2 === 1 ? part : encodeURI(part).replace(/%5B/g, "[").replace(/%5D/g, "]")))
    .join("");
}
