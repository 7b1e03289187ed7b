import { isUriTemplateProblem, parseUriTemplate } from "@mcp-gen/schema/uri-template";

export { isUriTemplate } from "@mcp-gen/schema/uri-template";

/** What a `@resource` template declares: its variables in order of appearance, each once. */
export interface ParsedTemplate {
  variables: string[];
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;
const NO_SCHEME = "it does not start with a scheme (like `file:` or `app:`)";

/**
 * Reads the RFC 6570 template of a `@resource` (the shared parser of `@mcp-gen/schema`, which
 * servers and clients use too); a resource's template must also start with a scheme, as MCP
 * resource URIs are absolute. `{ error }` says what is wrong and where (1-based position).
 */
export function parseResourceTemplate(template: string): ParsedTemplate | { error: string } {
  if (!SCHEME.test(template)) return { error: NO_SCHEME };
  const parsed = parseUriTemplate(template);
  if (isUriTemplateProblem(parsed)) return { error: `it has ${parsed.error}` };
  return { variables: [...parsed.variables] };
}

/** Why a static resource URI is not an absolute URI, or `undefined` when it is one. */
export function uriProblem(uri: string): string | undefined {
  if (!SCHEME.test(uri)) return NO_SCHEME;
  if (/\s/.test(uri)) return "it contains white space";
  try {
    new URL(uri);
  } catch {
    return "it does not parse as a URI";
  }
  return undefined;
}
