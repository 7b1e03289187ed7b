/**
 * Matching URIs against RFC 6570 URI templates (levels 1–3), the reverse of expansion: which
 * values of the variables give this URI? Used by `resources/read` to find the resource template
 * a URI belongs to.
 *
 * Forms: `{var}` (simple), `{+var}` (reserved), `{#var}` (fragment), `{.var}` (label),
 * `{/var}` (path segment), `{;var}` (path parameter), `{?a,b}` (query), `{&a}` (query
 * continuation); an expression may list several variables (`{x,y}`, `{/a,b}`). Values are
 * percent-decoded. Level 4 modifiers (`:3`, `*`) are read as plain variables.
 *
 * Matching is lenient where expansion is strict: a simple value may hold any character but
 * the separators around it (`/ ? # ,`), query parameters may come in any order and unknown
 * ones are ignored, variables of `;`, `?` and `&` expressions may be absent.
 */
export interface UriTemplate {
  /** The template as written. */
  readonly source: string;
  /** Every variable name, in order of appearance. */
  readonly variables: readonly string[];
  /** The variables' values when `uri` matches, else `undefined`. */
  match(uri: string): Record<string, string> | undefined;
}

/** URIs longer than this match no template (the regular expressions stay linear enough). */
export const MAX_MATCHED_URI_LENGTH = 16 * 1024;

type Operator = "" | "+" | "#" | "." | "/" | ";" | "?" | "&";

/** How one capture group of the compiled pattern becomes variable values. */
type Capture =
  | { kind: "value"; name: string }
  | { kind: "parameter"; name: string }
  | { kind: "query"; names: readonly string[] };

const OPERATORS = new Set(["+", "#", ".", "/", ";", "?", "&"]);
/** A variable name (RFC 6570 varname) with an optional level 4 modifier. */
const VARSPEC =
  /^((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*)(?::[1-9][0-9]{0,3}|\*)?$/;

/**
 * Compiles a template; throws on a malformed one (an unclosed brace, an empty expression, an
 * invalid variable name), naming the template.
 *
 * @example
 * const t = compileUriTemplate("users://{id}/posts{?limit}");
 * t.match("users://42/posts?limit=5"); // { id: "42", limit: "5" }
 */
export function compileUriTemplate(source: string): UriTemplate {
  let pattern = "^";
  const captures: Capture[] = [];
  const variables: string[] = [];
  const queryNames: string[] = [];
  let at = 0;
  while (at < source.length) {
    const open = source.indexOf("{", at);
    const literalEnd = open === -1 ? source.length : open;
    const literal = source.slice(at, literalEnd);
    if (literal.includes("}")) throw malformed(source, "a '}' without its '{'");
    pattern += escapeRegExp(literal);
    if (open === -1) break;
    const close = source.indexOf("}", open);
    if (close === -1) throw malformed(source, "a '{' without its '}'");
    let body = source.slice(open + 1, close);
    let operator: Operator = "";
    if (OPERATORS.has(body[0] ?? "")) {
      operator = body[0] as Operator;
      body = body.slice(1);
    }
    const names = body.split(",").map((spec) => {
      const name = VARSPEC.exec(spec)?.[1];
      if (name === undefined) throw malformed(source, `an invalid variable ${JSON.stringify(spec)}`);
      return name;
    });
    variables.push(...names);
    pattern += expression(operator, names, captures, queryNames);
    at = close + 1;
  }
  const regex = new RegExp(`${pattern}$`);
  return {
    source,
    variables,
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
        values[capture.name] = value;
      }
      return values;
    },
  };
}

/** The pattern of one expression; pushes its capture groups in order. */
function expression(operator: Operator, names: string[], captures: Capture[], queryNames: string[]): string {
  const value = (name: string, chars: string) => {
    captures.push({ kind: "value", name });
    return `(${chars}+)`;
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

function malformed(source: string, problem: string): Error {
  return new Error(`mcp-gen: the URI template ${JSON.stringify(source)} has ${problem}`);
}
