import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import Provider from "oidc-provider";

/** A client registered at the test authorization server (client credentials, `client_secret_basic`). */
export interface TestClient {
  clientId: string;
  clientSecret: string;
  /** Scopes it may ask for, space-separated. */
  scope: string;
}

/** A signing key of the authorization server: its private JWK (with `kid`). */
type SigningKey = JWK & { kid: string };

/**
 * A real OpenID Provider (`oidc-provider`) on 127.0.0.1 for authorization tests: the
 * client-credentials grant with resource indicators (RFC 8707), so a token names the MCP server
 * it is meant for as its audience. Tokens for resources listed in `opaqueResources` are opaque
 * (checked by introspection); every other resource gets a JWT access token (RFC 9068).
 */
export interface AuthorizationServer {
  /** The issuer identifier, `http://127.0.0.1:<port>`. */
  readonly issuer: string;
  /** A token by the client-credentials grant for `resource` (the audience). */
  token(options: { client: TestClient; resource: string; scope?: string }): Promise<string>;
  /**
   * Signs a token with the server's current key, for what the server never issues itself
   * (expired, not yet valid, another issuer).
   */
  forge(claims: Record<string, unknown>): Promise<string>;
  /** Rotates the signing key: a new key (new `kid`) signs from now on; the old one stays published. */
  rotateKeys(): Promise<void>;
  /** The `kid` tokens are signed with now. */
  readonly currentKid: string;
  close(): Promise<void>;
}

export const MACHINE: TestClient = {
  clientId: "machine",
  clientSecret: "machine-secret-0123456789",
  scope: "notes:read notes:write",
};
/** Asks for nothing beyond reading. */
export const READER: TestClient = {
  clientId: "reader",
  clientSecret: "reader-secret-0123456789",
  scope: "notes:read",
};
/** The resource server itself, when it checks tokens by introspection (RFC 7662). */
export const INTROSPECTOR: TestClient = {
  clientId: "mcp-server",
  clientSecret: "mcp-server-secret-0123456789",
  scope: "",
};

async function newKey(index: number): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: `key-${index}`, alg: "RS256", use: "sig" };
}

export async function startAuthorizationServer(
  options: { opaqueResources?: string[] } = {},
): Promise<AuthorizationServer> {
  const opaque = new Set(options.opaqueResources ?? []);
  const keys: SigningKey[] = [await newKey(1)];
  const http: Server = createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  const build = () =>
    new Provider(issuer, {
      clients: [MACHINE, READER, INTROSPECTOR].map((c) => ({
        client_id: c.clientId,
        client_secret: c.clientSecret,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
        ...(c.scope ? { scope: c.scope } : {}),
      })),
      scopes: ["notes:read", "notes:write"],
      jwks: { keys: keys.map((k) => ({ ...k })) as never },
      features: {
        devInteractions: { enabled: false },
        clientCredentials: { enabled: true },
        introspection: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: (_ctx, _client, oneOf) => oneOf ?? "urn:mcp-gen:none",
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, resource) => ({
            scope: "notes:read notes:write",
            audience: resource,
            accessTokenTTL: 600,
            accessTokenFormat: opaque.has(resource) ? "opaque" : "jwt",
            jwt: { sign: { alg: "RS256" } },
          }),
        },
      },
    });
  // The first key of the list signs; rotating puts a new key first and keeps the old one published.
  let handler = build().callback();

  return {
    issuer,
    get currentKid() {
      return keys[0]!.kid;
    },
    async token({ client, resource, scope }) {
      const response = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          resource,
          ...((scope ?? client.scope) ? { scope: scope ?? client.scope } : {}),
        }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!response.ok || !body.access_token)
        throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
      return body.access_token;
    },
    async forge(claims) {
      const { importJWK } = await import("jose");
      const key = keys[0]!;
      return new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", kid: key.kid, typ: "at+jwt" })
        .sign(await importJWK(key, "RS256"));
    },
    async rotateKeys() {
      keys.unshift(await newKey(keys.length + 1));
      handler = build().callback();
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
