import type { OAuthClientProvider } from "@modelcontextprotocol/client";

/** Environment variables of the OAuth client credentials `pull --url` and `chat --mcp <url>` use. */
export const OAUTH_ENV = {
  clientId: "MCP_GEN_OAUTH_CLIENT_ID",
  clientSecret: "MCP_GEN_OAUTH_CLIENT_SECRET",
  issuer: "MCP_GEN_OAUTH_ISSUER",
  scope: "MCP_GEN_OAUTH_SCOPE",
} as const;

/**
 * The OAuth provider for HTTP servers that require authorization, from the environment (secrets
 * never go on the command line): the client-credentials grant when `MCP_GEN_OAUTH_CLIENT_ID` and
 * `MCP_GEN_OAUTH_CLIENT_SECRET` are set, pinned to the authorization server `MCP_GEN_OAUTH_ISSUER`
 * when given. `undefined` when neither is set; a message when only one is. A provider keeps the
 * tokens it got, so each server gets one of its own (`create()` per server): a token for one server
 * never goes to another.
 */
export async function oauthFromEnv(
  env: NodeJS.ProcessEnv,
): Promise<{ ok: true; create: (() => OAuthClientProvider) | undefined } | { ok: false; message: string }> {
  const clientId = env[OAUTH_ENV.clientId];
  const clientSecret = env[OAUTH_ENV.clientSecret];
  if (!clientId && !clientSecret) return { ok: true, create: undefined };
  if (!clientId || !clientSecret) {
    return {
      ok: false,
      message: `OAuth client credentials need both ${OAUTH_ENV.clientId} and ${OAUTH_ENV.clientSecret}; ${clientId ? OAUTH_ENV.clientSecret : OAUTH_ENV.clientId} is not set`,
    };
  }
  const { oauthClientCredentials } = await import("@mcp-gen/runtime/client");
  const issuer = env[OAUTH_ENV.issuer];
  const scope = env[OAUTH_ENV.scope];
  return {
    ok: true,
    create: () =>
      oauthClientCredentials({
        clientId,
        clientSecret,
        ...(issuer ? { issuer } : {}),
        ...(scope ? { scope } : {}),
      }),
  };
}
