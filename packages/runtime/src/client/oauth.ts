import { ClientCredentialsProvider } from "@modelcontextprotocol/client";

/**
 * An OAuth provider for machines (the client-credentials grant, `client_secret_basic`): pass it
 * as `authProvider` to `connectHttp` or `mcpTools`. The SDK's `ClientCredentialsProvider`, so
 * discovery, token requests for the server's audience (RFC 8707) and step-up on 403
 * `insufficient_scope` are the SDK's. `issuer` pins the authorization server the secret may go
 * to: a server naming another one is refused.
 *
 * @example
 * const { client } = await connectHttp("https://mcp.example.com/mcp", {
 *   authProvider: oauthClientCredentials({
 *     clientId: "reporting-job",
 *     clientSecret: process.env.CLIENT_SECRET!,
 *     issuer: "https://auth.example.com",
 *     scope: "notes:read",
 *   }),
 * });
 */
export function oauthClientCredentials(options: {
  clientId: string;
  clientSecret: string;
  /** The authorization server's issuer identifier the credentials belong to. */
  issuer?: string;
  /** Scopes to ask for, space-separated; default: what the server's challenge or metadata names. */
  scope?: string;
}): ClientCredentialsProvider {
  return new ClientCredentialsProvider({
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    clientName: "mcp-gen",
    ...(options.scope ? { scope: options.scope } : {}),
    ...(options.issuer ? { expectedIssuer: options.issuer } : {}),
  });
}
