import {
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  type DpopAlg,
  DpopSession,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  OAuthError,
  OAuthErrorCode,
  requestJwtAuthorizationGrant,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";

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

/**
 * Binds the access tokens of any OAuth provider to a key of the client (DPoP, RFC 9449): the
 * token request carries a DPoP proof, and a DPoP-bound token goes to the server with the `DPoP`
 * scheme and a fresh proof on each request instead of `Bearer`; nonces the authorization server
 * or the MCP server ask for (`use_dpop_nonce`) are taken and the request retried. The SDK does
 * the signing (`DpopSession`, a non-extractable ES256 key by default, one per provider); an
 * authorization server that does not bind tokens hands out `Bearer` tokens, sent as before.
 *
 * @example
 * const { client } = await connectHttp("https://mcp.example.com/mcp", {
 *   authProvider: oauthDpop(oauthClientCredentials({ clientId: "job", clientSecret })),
 * });
 */
export function oauthDpop<P extends OAuthClientProvider>(provider: P, options: { alg?: DpopAlg } = {}): P {
  let session: Promise<DpopSession> | undefined;
  const dpop = () => {
    session ??= DpopSession.create(options.alg ? { alg: options.alg } : {});
    return session;
  };
  return new Proxy(provider, {
    get(target, key) {
      if (key === "dpop") return dpop;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    has(target, key) {
      return key === "dpop" || Reflect.has(target, key);
    },
  });
}

/**
 * An OAuth provider for workloads with an identity token of their platform (workload identity
 * federation, SEP-1933): the JWT-bearer grant (RFC 7523) with the workload's JWT as `assertion`,
 * no client secret (`token_endpoint_auth_method: none`). `assertion` is called for each token
 * request, so a short-lived token is read afresh. A refused grant (`invalid_grant`,
 * `invalid_scope`, `unauthorized_client`) surfaces as the SDK's `OAuthError`: no other grant is
 * tried, and an assertion that got no token is never sent again (the SDK's `auth()` retries once
 * after `invalid_grant`, meant for refresh tokens: that retry fails without a request).
 *
 * @example
 * const { client } = await connectHttp("https://mcp.example.com/mcp", {
 *   authProvider: oauthJwtBearer({
 *     clientId: "reporting-workload",
 *     assertion: () => readFile("/var/run/secrets/tokens/mcp", "utf8"),
 *   }),
 * });
 */
export function oauthJwtBearer(options: {
  clientId: string;
  /** The workload's JWT, its audience the authorization server (or a function reading it). */
  assertion: string | (() => string | Promise<string>);
  /** The authorization server's issuer identifier the client belongs to. */
  issuer?: string;
  /** Scopes to ask for, space-separated; default: what the server's challenge or metadata names. */
  scope?: string;
}): OAuthClientProvider {
  let tokens: StoredOAuthTokens | undefined;
  /** The assertion last sent, until a token comes of it. */
  let pending: string | undefined;
  const grant = "urn:ietf:params:oauth:grant-type:jwt-bearer";
  return {
    get redirectUrl() {
      return undefined;
    },
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: "mcp-gen",
        redirect_uris: [],
        grant_types: [grant],
        token_endpoint_auth_method: "none",
        ...(options.scope ? { scope: options.scope } : {}),
      };
    },
    clientInformation: () => ({
      client_id: options.clientId,
      ...(options.issuer ? { issuer: options.issuer } : {}),
    }),
    tokens: () => tokens,
    saveTokens(saved) {
      tokens = saved;
      pending = undefined;
    },
    redirectToAuthorization() {
      throw new Error("mcp-gen: the JWT-bearer grant has no user authorization");
    },
    saveCodeVerifier() {},
    codeVerifier() {
      throw new Error("mcp-gen: the JWT-bearer grant uses no code verifier");
    },
    async prepareTokenRequest(scope?: string) {
      const assertion = (
        typeof options.assertion === "string" ? options.assertion : await options.assertion()
      ).trim();
      if (assertion === pending) {
        throw new OAuthError(
          OAuthErrorCode.InvalidGrant,
          "invalid_grant: the authorization server gave no token for this assertion; it is not sent again",
        );
      }
      pending = assertion;
      const params = new URLSearchParams({ grant_type: grant, assertion });
      const asked = scope ?? options.scope;
      if (asked) params.set("scope", asked);
      return params;
    },
  } as OAuthClientProvider;
}

/**
 * An OAuth provider for Enterprise-Managed Authorization (SEP-990, cross-app access): the
 * user's ID token from the enterprise identity provider is exchanged there for an identity
 * assertion grant (ID-JAG, RFC 8693 token exchange, audience the MCP server's authorization
 * server, resource the MCP server), which the client then redeems at the MCP server's
 * authorization server with the JWT-bearer grant (RFC 7523), authenticated with its own secret.
 * The SDK's `CrossAppAccessProvider` and `requestJwtAuthorizationGrant`.
 *
 * @example
 * const { client } = await connectHttp("https://mcp.example.com/mcp", {
 *   authProvider: oauthEnterprise({
 *     clientId: "chat-app",
 *     clientSecret: process.env.MCP_CLIENT_SECRET!,
 *     idp: { tokenEndpoint: "https://idp.example.com/token", clientId: "chat-app-at-idp", idToken },
 *   }),
 * });
 */
export function oauthEnterprise(options: {
  /** The client at the MCP server's authorization server. */
  clientId: string;
  clientSecret: string;
  /** The authorization server's issuer identifier the credentials belong to. */
  issuer?: string;
  idp: {
    /** The identity provider's token endpoint, where the ID token is exchanged. */
    tokenEndpoint: string;
    /** The client at the identity provider. */
    clientId: string;
    clientSecret?: string;
    /** The user's ID token (or a function returning a current one). */
    idToken: string | (() => string | Promise<string>);
  };
}): CrossAppAccessProvider {
  const { idp } = options;
  return new CrossAppAccessProvider({
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    clientName: "mcp-gen",
    ...(options.issuer ? { expectedIssuer: options.issuer } : {}),
    assertion: async (ctx) => {
      const granted = await requestJwtAuthorizationGrant({
        tokenEndpoint: idp.tokenEndpoint,
        audience: ctx.authorizationServerUrl,
        resource: ctx.resourceUrl,
        idToken: typeof idp.idToken === "string" ? idp.idToken : await idp.idToken(),
        clientId: idp.clientId,
        ...(idp.clientSecret !== undefined ? { clientSecret: idp.clientSecret } : {}),
        ...(ctx.scope ? { scope: ctx.scope } : {}),
        fetchFn: ctx.fetchFn,
      });
      return granted.jwtAuthGrant;
    },
  } as ConstructorParameters<typeof CrossAppAccessProvider>[0] & { expectedIssuer: string });
}
