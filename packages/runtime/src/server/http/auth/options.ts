import type { OAuthTokenVerifier } from "@modelcontextprotocol/server";

/**
 * The server as an OAuth 2.1 resource server (MCP "Authorization", 2025-11-25 and 2026-07-28):
 * every request to the MCP endpoint needs an access token the authorization server issued for
 * this server (its audience), checked here, never forwarded anywhere. The server publishes its
 * Protected Resource Metadata (RFC 9728) at `/.well-known/oauth-protected-resource[/<path>]`, and
 * answers a missing or invalid token with 401 and `WWW-Authenticate: Bearer resource_metadata="…"`.
 *
 * @example
 * await serve(manifest, {
 *   transport: "http",
 *   http: { port: 8080, auth: { issuer: "https://auth.example.com", audience: "https://mcp.example.com/mcp" } },
 * });
 */
export interface HttpAuthOptions {
  /** The authorization server's issuer identifier (RFC 8414), e.g. `https://auth.example.com`. */
  issuer: string;
  /**
   * This server's canonical URI: the `resource` of its metadata and the audience every token must
   * name (RFC 8707), e.g. `https://mcp.example.com/mcp`. Default: the URL the server listens on
   * (`http://127.0.0.1:<port>/mcp`), which only fits when clients connect to exactly that URL.
   */
  audience?: string;
  /** Where the authorization server's signing keys are. Default: `jwks_uri` of the issuer's metadata. */
  jwksUri?: string;
  /**
   * Check tokens by introspection (RFC 7662) instead of as JWTs: for authorization servers that
   * issue opaque tokens. The server authenticates to the endpoint with its own client
   * credentials (`client_secret_basic`). `endpoint` defaults to `introspection_endpoint` of the
   * issuer's metadata.
   */
  introspection?: { endpoint?: string; clientId: string; clientSecret: string };
  /**
   * Scopes every request needs, besides the scopes of the tool it calls (`@scope`). Sent in the
   * `scope` parameter of 401 challenges. Default: none.
   */
  requiredScopes?: string[];
  /**
   * What `tools/list` shows an authenticated caller: only the tools its token has the scopes for
   * (`"filter"`, default), or every tool (`"all"`; calling one without its scopes still gets 403).
   */
  scopesOnList?: "filter" | "all";
  /** Leeway for `exp` and `nbf` in seconds, for clocks apart. Default 0. */
  clockToleranceSeconds?: number;
  /**
   * After fetching the signing keys, how long a token with an unknown key id waits before they are
   * fetched again (a rotated key). Default 30 s, so tokens with made-up key ids cannot make the
   * server flood the authorization server.
   */
  jwksCooldownMs?: number;
  /** Checks tokens some other way (any `OAuthTokenVerifier` of the SDK); replaces JWT and introspection checks. */
  verifier?: OAuthTokenVerifier;
}
