import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type AuthInfo,
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  type OAuthMetadata,
  type OAuthProtectedResourceMetadata,
  type OAuthTokenVerifier,
  verifyBearerToken,
} from "@modelcontextprotocol/server";
import { missingScopes } from "../../principal.ts";
import { introspectionVerifier } from "./introspection-verifier.ts";
import { issuerMetadata } from "./issuer-metadata.ts";
import { jwtVerifier } from "./jwt-verifier.ts";
import type { HttpAuthOptions } from "./options.ts";

/** The resource-server side of MCP authorization, in front of the MCP endpoint. */
export interface AuthGate {
  /** This server's canonical URI (the audience of its tokens). */
  readonly resource: string;
  /** Where its Protected Resource Metadata is (`resource_metadata` of every challenge). */
  readonly resourceMetadataUrl: string;
  /** `tools/list` shows only what a caller may call. */
  readonly filterList: boolean;
  /** Answers a request for the Protected Resource Metadata; `false` for any other path. */
  serveMetadata(req: IncomingMessage, res: ServerResponse, path: string): boolean;
  /** The verified token of a request, or the 401 (or 500) answer to send instead. */
  authenticate(
    req: IncomingMessage,
  ): Promise<{ ok: true; info: AuthInfo } | { ok: false; response: Response }>;
  /**
   * The 403 `insufficient_scope` answer for a body calling a tool whose `@scope`s the token lacks
   * (the SDK's scope challenge, as `McpServer` sends it), else `undefined`.
   */
  scopeChallenge(body: unknown, info: AuthInfo): Response | undefined;
}

/**
 * Builds the gate: validates the options now (a bad issuer or audience fails at start-up, not on
 * the first request), fetches the issuer's metadata when first needed.
 */
export function createAuthGate(options: {
  auth: HttpAuthOptions;
  /** The URL the server listens on (the default audience). */
  serverUrl: string;
  /** The endpoint path, for the path-suffixed metadata URL. */
  path: string;
  serverName: string;
  /** Scopes of each tool by name (read on every call: the manifest can change). */
  scopesOf: (tool: string) => readonly string[] | undefined;
  /** Every scope some tool needs (`scopes_supported`). */
  allScopes: () => readonly string[];
}): AuthGate {
  const { auth } = options;
  // The issuer as given: tokens must carry exactly it. The audience as the metadata publishes it
  // (`URL.href`), which is what clients ask tokens for.
  checkedUrl(auth.issuer, "auth.issuer (--auth-issuer)");
  const issuer = auth.issuer;
  const resourceUrl = checkedUrl(auth.audience ?? options.serverUrl, "auth.audience (--auth-audience)");
  const resource = resourceUrl.href;
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(resourceUrl);
  const requiredScopes = auth.requiredScopes ?? [];
  const metadata = issuerMetadata(issuer);
  const clockToleranceSeconds = auth.clockToleranceSeconds ?? 0;
  const verifier: OAuthTokenVerifier =
    auth.verifier ??
    (auth.introspection
      ? introspectionVerifier({
          issuer,
          audience: resource,
          endpoint: auth.introspection.endpoint,
          clientId: auth.introspection.clientId,
          clientSecret: auth.introspection.clientSecret,
          metadata,
          clockToleranceSeconds,
        })
      : jwtVerifier({
          issuer,
          audience: resource,
          jwksUri: auth.jwksUri,
          metadata,
          clockToleranceSeconds,
          cooldownMs: auth.jwksCooldownMs ?? 30_000,
        }));
  const document = (): OAuthProtectedResourceMetadata => ({
    ...buildOAuthProtectedResourceMetadata({
      // Only `issuer` is read: the document names the authorization server, clients fetch the rest.
      oauthMetadata: { issuer } as OAuthMetadata,
      resourceServerUrl: resourceUrl,
      resourceName: options.serverName,
      scopesSupported: [...new Set([...requiredScopes, ...options.allScopes()])],
    }),
    bearer_methods_supported: ["header"],
  });
  document(); // Refuses an issuer that is not HTTPS (but on localhost) now.
  const metadataPaths = new Set([
    "/.well-known/oauth-protected-resource",
    new URL(resourceMetadataUrl).pathname,
    `/.well-known/oauth-protected-resource${options.path}`,
  ]);

  return {
    resource,
    resourceMetadataUrl,
    filterList: (auth.scopesOnList ?? "filter") === "filter",
    serveMetadata(req, res, path) {
      if (!metadataPaths.has(path.replace(/(.)\/$/, "$1"))) return false;
      const cors = { "access-control-allow-origin": "*" };
      if (req.method === "OPTIONS") {
        res.writeHead(204, { ...cors, "access-control-allow-methods": "GET, HEAD, OPTIONS" }).end();
      } else if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { ...cors, allow: "GET, HEAD, OPTIONS" }).end();
      } else {
        const body = JSON.stringify(document());
        res.writeHead(200, { ...cors, "content-type": "application/json", "cache-control": "max-age=300" });
        res.end(req.method === "HEAD" ? undefined : body);
      }
      return true;
    },
    async authenticate(req) {
      const settings = { verifier, requiredScopes, resourceMetadataUrl, expectedResource: resourceUrl };
      try {
        return { ok: true, info: await verifyBearerToken(req.headers.authorization, settings) };
      } catch (error) {
        return { ok: false, response: bearerAuthChallengeResponse(error, settings) };
      }
    },
    scopeChallenge(body, info) {
      for (const message of Array.isArray(body) ? body : [body]) {
        const { method, params } = (message ?? {}) as { method?: unknown; params?: { name?: unknown } };
        if (method !== "tools/call" || typeof params?.name !== "string") continue;
        const needed = options.scopesOf(params.name);
        if (missingScopes(needed, info).length === 0) continue;
        const scopes = [...new Set([...requiredScopes, ...(needed ?? [])])];
        return bearerAuthChallengeResponse(
          new OAuthError(
            OAuthErrorCode.InsufficientScope,
            `Tool ${params.name} needs scope ${scopes.join(" ")}`,
          ),
          { requiredScopes: scopes, resourceMetadataUrl },
        );
      }
      return undefined;
    },
  };
}

function checkedUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`mcp-gen: ${what} must be an absolute URL, got ${JSON.stringify(value)}`);
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.hash) {
    throw new Error(
      `mcp-gen: ${what} must be an http(s) URL without a fragment, got ${JSON.stringify(value)}`,
    );
  }
  return url;
}
