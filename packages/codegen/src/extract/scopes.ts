import type { ExtractContext, Site } from "./context.ts";
import type { DocInfo } from "./jsdoc.ts";

/** An OAuth scope (RFC 6749 §3.3 `scope-token`): printable ASCII but space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * The OAuth scopes a tool needs: every `@scope` tag (repeatable; one tag may also list several,
 * space-separated), in order, without repeats. A caller's token must carry all of them when the
 * server checks authorization (`mcp-gen serve --http --auth-issuer …`).
 */
export function scopesOf(doc: DocInfo, ctx: ExtractContext, site: Site): string[] {
  const scopes: string[] = [];
  for (const tag of doc.tags) {
    if (tag.name !== "scope") continue;
    const tokens = tag.text.split(/\s+/).filter(Boolean);
    if (tokens.length === 0) {
      ctx.fail(
        "MCPG028",
        "@scope needs a scope",
        site,
        "write the scope after the tag, e.g. `@scope notes:write`",
      );
    }
    for (const token of tokens) {
      if (!SCOPE_TOKEN.test(token)) {
        ctx.fail(
          "MCPG028",
          `@scope ${JSON.stringify(token)} is not an OAuth scope (printable ASCII without spaces, quotes or backslashes)`,
          site,
          "write the scope as the authorization server names it, e.g. `@scope notes:write`",
        );
      }
      if (!scopes.includes(token)) scopes.push(token);
    }
  }
  return scopes;
}
