import { expandUriTemplate } from "./expand.ts";
import { type ParsedUriTemplate, parseUriTemplateOrThrow, type UriTemplateOperator } from "./parse.ts";

/**
 * A compiled URI template: matching URIs against it (the reverse of expansion: which values of
 * the variables give this URI?), as `resources/read` does to find the template a URI belongs
 * to, and expanding it.
 *
 * Matching is lenient where expansion is strict: a simple value may hold any character but the
 * separators around it (`/ ? # ,`), query parameters may come in any order and unknown ones are
 * ignored, variables of `;`, `?` and `&` expressions may be absent. Values are percent-decoded;
 * level 4 modifiers (`:3`, `*`) are read as plain variables.
 */
export interface CompiledUriTemplate {
  /** The template as written. */
  readonly source: string;
  /** Every variable name, in order of appearance, each once. */
  readonly variables: readonly string[];
  /** The variables' values when `uri` matches, else `undefined`. */
  match(uri: string): Record<string, string> | undefined;
  /** The URI for these values (`expandUriTemplate`). */
  expand(values: Readonly<Record<string, unknown>>): string;
}

/** URIs longer than this match no template (the regular expressions stay linear enough). */
export const MAX_MATCHED_URI_LENGTH = 16 * 1024;

/** How one capture group of the compiled pattern becomes variable values. */
type Capture =
  | { kind: "value"; name: string }
  | { kind: "parameter"; name: string }
  | { kind: "query"; names: readonly string[] };

/**
 * Compiles a template; throws on a malformed one (an unclosed brace, an empty expression, an
 * invalid variable name, a reserved operator), naming the template and the problem's position.
 *
 * @example
 * const t = compileUriTemplate("users://{id}/posts{?limit}");
 * t.match("users://42/posts?limit=5"); // { id: "42", limit: "5" }
 */
export function compileUriTemplate(template: string | ParsedUriTemplate): CompiledUriTemplate {
  const parsed = typeof template === "string" ? parseUriTemplateOrThrow(template) : template;
  let pattern = "^";
  const captures: Capture[] = [];
  const queryNames: string[] = [];
  parsed.parts.forEach((part, i) => {
    if (part.kind === "literal") {
      pattern += escapeRegExp(part.text);
      return;
    }
    // A value ends where an optional expression after it may begin (`{/d}{;e}`: `;` ends `d`).
    const after = parsed.parts[i + 1];
    const stop = after?.kind === "expression" && OPTIONAL_STARTS.has(after.operator) ? after.operator : "";
    const names = part.variables.map((v) => v.name);
    pattern += expression({ operator: part.operator, names, stop, captures, queryNames });
  });
  const regex = new RegExp(`${pattern}$`);
  return {
    source: parsed.source,
    variables: parsed.variables,
    match(uri) {
      if (uri.length > MAX_MATCHED_URI_LENGTH) return undefined;
      const found = regex.exec(uri);
      if (!found) return undefined;
      const values: Record<string, string> = {};
      for (let i = 0; i < captures.length; i++) {
        const capture = captures[i]!;
        const raw = found[i + 1];
        if (raw === undefined) continue;
        if (capture.kind === "query") {
          if (!readQuery(raw, queryNames, values)) return undefined;
          continue;
        }
        const value = capture.kind === "parameter" ? parameterValue(raw, capture.name) : decode(raw);
        if (value === undefined) return undefined;
        // A variable named twice (`{id}/x/{id}`) matches only where both places agree.
        if (Object.hasOwn(values, capture.name) && values[capture.name] !== value) return undefined;
        values[capture.name] = value;
      }
      return values;
    },
    expand: (values) => expandUriTemplate(parsed, values),
  };
}

/** Operators of expressions that may expand to nothing at all and start with their operator. */
const OPTIONAL_STARTS = new Set([";", "?", "&"]);

/** The pattern of one expression; pushes its capture groups in order. */
function expression(options: {
  operator: UriTemplateOperator;
  names: string[];
  /** A character that ends the values (where the next expression begins), or "". */
  stop: string;
  captures: Capture[];
  queryNames: string[];
}): string {
  const { operator, names, stop, captures, queryNames } = options;
  const value = (name: string, chars: string) => {
    captures.push({ kind: "value", name });
    return `(${stop && chars.startsWith("[^") ? `[^${escapeRegExp(stop)}${chars.slice(2)}` : chars}+)`;
  };
  switch (operator) {
    case "":
      // `{a,b}` expands to `1,2`; the later values may be absent.
      return names.map((n, i) => (i === 0 ? value(n, "[^/?#,]") : `(?:,${value(n, "[^/?#,]")})?`)).join("");
    case "+":
    case "#": {
      // Reserved characters stay as they are: a lone value may hold anything (`/`, `?` …).
      const chars = names.length === 1 ? "." : "[^,]";
      const values = names.map((n, i) => (i === 0 ? value(n, chars) : `(?:,${value(n, chars)})?`)).join("");
      return operator === "#" ? `#${values}` : values;
    }
    case ".":
      return names.map((n) => `\\.${value(n, "[^/?#.,]")}`).join("");
    case "/":
      return names.map((n) => `/${value(n, "[^/?#,]")}`).join("");
    case ";":
      // `;x=1;y` — a parameter without `=` has the empty value.
      return names
        .map((n) => {
          captures.push({ kind: "parameter", name: n });
          return `(?:(;${escapeRegExp(n)}(?:=[^;/?#]*)?)(?=[;/?#]|$))?`;
        })
        .join("");
    case "?":
    case "&":
      // The parameters of every query expression are read together from what these capture.
      queryNames.push(...names);
      captures.push({ kind: "query", names });
      return operator === "?" ? "(?:\\?([^#]*))?" : "((?:&[^#]*)?)";
  }
}

/** Assigns the `name=value` pairs of a query (or query continuation) to the template's query variables. */
function readQuery(raw: string, names: readonly string[], values: Record<string, string>): boolean {
  for (const pair of raw.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const name = decode(equals === -1 ? pair : pair.slice(0, equals));
    const value = decode(equals === -1 ? "" : pair.slice(equals + 1));
    if (name === undefined || value === undefined) return false;
    if (names.includes(name) && !Object.hasOwn(values, name)) values[name] = value;
  }
  return true;
}

/** The value of a path parameter: `;x=1` gives "1", `;x` the empty string. */
function parameterValue(raw: string, name: string): string | undefined {
  const rest = raw.slice(1 + name.length);
  return rest.startsWith("=") ? decode(rest.slice(1)) : "";
}

/** Percent-decodes; `undefined` for a malformed escape (such a URI matches nothing). */
function decode(text: string): string | undefined {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
