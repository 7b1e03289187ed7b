/** A URI template as RFC 6570 (level 4) writes it: literal text and `{op var,var}` expressions. */
export interface ParsedTemplate {
  /** Variable names in order of appearance, each once. */
  variables: string[];
}

const OPERATORS = new Set(["+", "#", ".", "/", ";", "?", "&"]);
const RESERVED_OPERATORS = new Set(["=", ",", "!", "@", "|"]);
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Whether the text of `@resource` is a template (has an expression) rather than a URI. */
export function isUriTemplate(text: string): boolean {
  return text.includes("{") || text.includes("}");
}

/** Parses an RFC 6570 URI template; `{ error }` says what is wrong with a malformed one. */
export function parseUriTemplate(template: string): ParsedTemplate | { error: string } {
  if (!SCHEME.test(template)) return { error: "it does not start with a scheme (like `file:` or `app:`)" };
  const variables: string[] = [];
  let i = 0;
  while (i < template.length) {
    const ch = template[i]!;
    if (ch === "}") return { error: `"}" at ${i + 1} closes no expression` };
    if (/\s/.test(ch)) return { error: `it contains white space at ${i + 1}` };
    if (ch !== "{") {
      i++;
      continue;
    }
    const end = template.indexOf("}", i);
    if (end < 0) return { error: `the expression at ${i + 1} is not closed with "}"` };
    let body = template.slice(i + 1, end);
    if (body.includes("{")) return { error: `the expression at ${i + 1} is not closed with "}"` };
    if (RESERVED_OPERATORS.has(body[0] ?? ""))
      return { error: `the operator "${body[0]}" of {${body}} is reserved by RFC 6570` };
    if (OPERATORS.has(body[0] ?? "")) body = body.slice(1);
    if (body === "") return { error: `the expression at ${i + 1} names no variable` };
    for (const spec of body.split(",")) {
      const name = spec.replace(/(:[1-9][0-9]{0,3}|\*)$/, "");
      if (!VARNAME.test(name))
        return { error: `"${spec}" in {${template.slice(i + 1, end)}} is not a variable name` };
      if (!variables.includes(name)) variables.push(name);
    }
    i = end + 1;
  }
  return { variables };
}

/** Why a static resource URI is not an absolute URI, or `undefined` when it is one. */
export function uriProblem(uri: string): string | undefined {
  if (!SCHEME.test(uri)) return "it does not start with a scheme (like `file:` or `app:`)";
  if (/\s/.test(uri)) return "it contains white space";
  try {
    new URL(uri);
  } catch {
    return "it does not parse as a URI";
  }
  return undefined;
}
