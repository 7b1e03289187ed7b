/**
 * RFC 6570 URI templates, read once into parts with their positions: what `mcp-gen build`
 * checks (`@resource` templates, with the position of a problem), what servers match URIs
 * against and what clients expand.
 */

/** An expression's operator: `""` (simple), `+` (reserved), `#`, `.`, `/`, `;`, `?`, `&`. */
export type UriTemplateOperator = "" | "+" | "#" | "." | "/" | ";" | "?" | "&";

/** One variable of an expression (`name`, `name:3`, `name*`). */
export interface UriTemplateVariable {
  readonly name: string;
  /** Level 4 prefix modifier (`:3`): at most this many characters of the value. */
  readonly prefix?: number;
  /** Level 4 explode modifier (`*`). */
  readonly explode?: boolean;
}

/** Literal text, or an expression `{op var,var}`; `at` is its 0-based offset in the template. */
export type UriTemplatePart =
  | { readonly kind: "literal"; readonly text: string; readonly at: number }
  | {
      readonly kind: "expression";
      readonly operator: UriTemplateOperator;
      readonly variables: readonly UriTemplateVariable[];
      readonly at: number;
    };

/** A template that parsed. */
export interface ParsedUriTemplate {
  readonly source: string;
  readonly parts: readonly UriTemplatePart[];
  /** Variable names in order of appearance, each once. */
  readonly variables: readonly string[];
}

/** What is wrong with a malformed template: a phrase (`a '{' without its '}' …`) and the 0-based offset. */
export interface UriTemplateProblem {
  readonly error: string;
  readonly at: number;
}

const OPERATORS = new Set(["+", "#", ".", "/", ";", "?", "&"]);
/** Operators RFC 6570 reserves for future extensions. */
const RESERVED_OPERATORS = new Set(["=", ",", "!", "@", "|"]);
const VARSPEC =
  /^((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*)(?::([1-9][0-9]{0,3})|(\*))?$/;
const WHITE_SPACE = /\s/;

/** Whether the text is a template (has an expression, or a brace) rather than a plain URI. */
export function isUriTemplate(text: string): boolean {
  return text.includes("{") || text.includes("}");
}

/**
 * Parses an RFC 6570 (level 4) URI template; a malformed one gives the problem and where it is.
 *
 * @example
 * parseUriTemplate("app://items/{id}{?q}").variables; // ["id", "q"]
 * parseUriTemplate("app://items/{id"); // { error: "a '{' without its '}' (…)", at: 12 }
 */
export function parseUriTemplate(source: string): ParsedUriTemplate | UriTemplateProblem {
  const parts: UriTemplatePart[] = [];
  const variables: string[] = [];
  let at = 0;
  while (at < source.length) {
    const open = source.indexOf("{", at);
    const literalEnd = open === -1 ? source.length : open;
    const literal = source.slice(at, literalEnd);
    const stray = literal.indexOf("}");
    if (stray !== -1)
      return problem(`a '}' without its '{' at ${at + stray + 1} (it closes no expression)`, at + stray);
    const space = literal.search(WHITE_SPACE);
    if (space !== -1) return problem(`white space at ${at + space + 1}`, at + space);
    if (literal) parts.push({ kind: "literal", text: literal, at });
    if (open === -1) break;
    const close = source.indexOf("}", open);
    const nested = source.indexOf("{", open + 1);
    if (close === -1 || (nested !== -1 && nested < close)) {
      return problem(`a '{' without its '}' (the expression at ${open + 1} is not closed)`, open);
    }
    const expression = source.slice(open + 1, close);
    const first = expression[0] ?? "";
    if (RESERVED_OPERATORS.has(first)) {
      return problem(`the operator "${first}" of {${expression}} at ${open + 1}, reserved by RFC 6570`, open);
    }
    const operator = (OPERATORS.has(first) ? first : "") as UriTemplateOperator;
    const specs: UriTemplateVariable[] = [];
    for (const spec of expression.slice(operator.length).split(",")) {
      const found = VARSPEC.exec(spec);
      if (!found) {
        const why = spec === "" ? "the expression names no variable" : "not a variable name";
        return problem(
          `an invalid variable ${JSON.stringify(spec)} in {${expression}} at ${open + 1} (${why})`,
          open,
        );
      }
      const name = found[1]!;
      specs.push({
        name,
        ...(found[2] !== undefined ? { prefix: Number(found[2]) } : {}),
        ...(found[3] !== undefined ? { explode: true } : {}),
      });
      if (!variables.includes(name)) variables.push(name);
    }
    parts.push({ kind: "expression", operator, variables: specs, at: open });
    at = close + 1;
  }
  return { source, parts, variables };
}

/** Whether `parseUriTemplate` found a problem. */
export function isUriTemplateProblem(
  parsed: ParsedUriTemplate | UriTemplateProblem,
): parsed is UriTemplateProblem {
  return "error" in parsed;
}

/** Parses a template, or throws an `Error` naming the template and its problem. */
export function parseUriTemplateOrThrow(source: string): ParsedUriTemplate {
  const parsed = parseUriTemplate(source);
  if (isUriTemplateProblem(parsed)) {
    throw new Error(`mcp-gen: the URI template ${JSON.stringify(source)} has ${parsed.error}`);
  }
  return parsed;
}

function problem(error: string, at: number): UriTemplateProblem {
  return { error, at };
}
