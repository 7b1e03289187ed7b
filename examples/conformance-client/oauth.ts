import { oauthClientCredentials, oauthDpop, oauthEnterprise, oauthJwtBearer } from "@mcp-gen/runtime/client";
import {
  auth,
  type OAuthClientInformationContext,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  PrivateKeyJwtProvider,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
  UnauthorizedError,
} from "@modelcontextprotocol/client";

/** What the conformance suite hands an auth scenario's client (`MCP_CONFORMANCE_CONTEXT`). */
export interface AuthContext {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  /** Enterprise-managed authorization: the user's ID token and the identity provider. */
  idp_client_id?: string;
  idp_id_token?: string;
  idp_token_endpoint?: string;
  /** Workload identity federation: the workload's JWT. */
  valid_jwt?: string;
}

/**
 * Where this client's metadata document is published (a Client ID Metadata Document, SEP-991):
 * an authorization server that supports them takes the URL as the client's id, fetching the
 * metadata from there, instead of registering the client dynamically.
 */
export const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * The authorization-code flow without a browser: "redirecting" the user is fetching the
 * authorization URL (the suite's authorization server approves at once) and reading the code
 * from the redirect it answers. Clients without credentials register dynamically (the SDK's DCR);
 * pre-registered ones authenticate with their secret.
 */
export class HeadlessAuthorizationCodeProvider implements OAuthClientProvider {
  /** Registrations by authorization server (`issuer`): a client moved to another one registers again. */
  readonly #clients = new Map<string, StoredOAuthClientInformation>();
  readonly #preregistered: StoredOAuthClientInformation | undefined;
  #tokens: StoredOAuthTokens | undefined;
  #verifier = "";
  readonly clientMetadataUrl = CLIENT_METADATA_URL;
  #discovery: OAuthDiscoveryState | undefined;
  /** The code of the last authorization, for `auth(provider, { authorizationCode })`. */
  code: string | undefined;
  /** The `iss` of the last authorization response (RFC 9207), when the server sent one. */
  iss: string | undefined;

  constructor(preregistered?: { clientId: string; clientSecret: string }) {
    if (preregistered) {
      this.#preregistered = { client_id: preregistered.clientId, client_secret: preregistered.clientSecret };
    }
  }

  get redirectUrl(): string {
    return "http://localhost:3000/callback";
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "mcp-gen-conformance-client",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.#preregistered ? "client_secret_basic" : "none",
    };
  }

  clientInformation(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    return this.#clients.get(ctx?.issuer ?? "") ?? this.#preregistered;
  }

  saveClientInformation(info: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): void {
    this.#clients.set(ctx?.issuer ?? "", info);
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.#tokens = tokens;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    const response = await fetch(url, { redirect: "manual" });
    const location = response.headers.get("location");
    if (!location)
      throw new Error(`the authorization endpoint answered ${response.status} without a redirect`);
    const params = new URL(location).searchParams;
    this.code = params.get("code") ?? undefined;
    this.iss = params.get("iss") ?? undefined;
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    return this.#verifier;
  }

  /** What discovery found at redirect time: the code is redeemed at that authorization server (SEP-2352). */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    if (scope === "all" || scope === "client") this.#clients.clear();
    if (scope === "all" || scope === "tokens") this.#tokens = undefined;
    if (scope === "all" || scope === "verifier") this.#verifier = "";
    if (scope === "all" || scope === "discovery") this.#discovery = undefined;
  }
}

/**
 * The provider for a scenario's context: enterprise-managed authorization (an ID token to
 * exchange), the JWT-bearer grant of a workload, client credentials (secret or signed JWT), else
 * the code flow; every one binds its tokens to a DPoP key where the authorization server does.
 */
export function providerFor(context: AuthContext): OAuthClientProvider {
  return oauthDpop(baseProviderFor(context));
}

function baseProviderFor(context: AuthContext): OAuthClientProvider {
  if (context.idp_id_token && context.idp_token_endpoint && context.client_id && context.client_secret) {
    return oauthEnterprise({
      clientId: context.client_id,
      clientSecret: context.client_secret,
      idp: {
        tokenEndpoint: context.idp_token_endpoint,
        clientId: context.idp_client_id ?? context.client_id,
        idToken: context.idp_id_token,
      },
    });
  }
  if (context.valid_jwt && context.client_id) {
    return oauthJwtBearer({ clientId: context.client_id, assertion: context.valid_jwt });
  }
  if (context.client_id && context.private_key_pem) {
    return new PrivateKeyJwtProvider({
      clientId: context.client_id,
      privateKey: context.private_key_pem,
      algorithm: context.signing_algorithm ?? "ES256",
    });
  }
  if (
    context.client_id &&
    context.client_secret &&
    process.env.MCP_CONFORMANCE_SCENARIO?.includes("client-credentials")
  ) {
    return oauthClientCredentials({ clientId: context.client_id, clientSecret: context.client_secret });
  }
  return new HeadlessAuthorizationCodeProvider(
    context.client_id && context.client_secret
      ? { clientId: context.client_id, clientSecret: context.client_secret }
      : undefined,
  );
}

/**
 * Runs `step`; when it stops for the user's authorization (`UnauthorizedError` after the
 * headless redirect), exchanges the code for tokens and runs it once more.
 */
export async function authorized<T>(
  provider: OAuthClientProvider,
  serverUrl: string,
  step: () => Promise<T>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const headless = provider instanceof HeadlessAuthorizationCodeProvider ? provider : undefined;
    const code = headless?.code;
    if (!(error instanceof UnauthorizedError) || !headless || !code) throw error;
    const iss = headless.iss;
    headless.code = undefined;
    await auth(provider, { serverUrl, authorizationCode: code, ...(iss !== undefined ? { iss } : {}) });
    // The discovery was kept for the redirect round trip only: the next 401 discovers afresh, so
    // a server that moved to another authorization server is followed there.
    headless.invalidateCredentials("discovery");
    return step();
  }
}
