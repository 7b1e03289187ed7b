import { OAuthError, OAuthErrorCode, type OAuthTokenVerifier } from "@modelcontextprotocol/server";
import type { IssuerMetadata } from "./issuer-metadata.ts";
import { scopesOf } from "./jwt-verifier.ts";

/**
 * Checks opaque access tokens by asking the authorization server (token introspection, RFC 7662),
 * authenticated with this server's own client credentials. The token goes to the server that
 * issued it and nowhere else. An active token must name this server as its audience.
 */
export function introspectionVerifier(options: {
  issuer: string;
  audience: string;
  endpoint: string | undefined;
  clientId: string;
  clientSecret: string;
  metadata: () => Promise<IssuerMetadata>;
  clockToleranceSeconds: number;
}): OAuthTokenVerifier {
  const basic = `Basic ${Buffer.from(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  ).toString("base64")}`;
  const invalid = (message: string) => new OAuthError(OAuthErrorCode.InvalidToken, message);
  return {
    async verifyAccessToken(token) {
      const endpoint = options.endpoint ?? (await options.metadata()).introspection_endpoint;
      if (!endpoint) {
        throw new OAuthError(
          OAuthErrorCode.ServerError,
          `The metadata of ${options.issuer} names no introspection_endpoint; give --auth-introspection <url>`,
        );
      }
      let body: Record<string, unknown>;
      try {
        const response = await fetch(endpoint, {
          method: "POST",
          headers: {
            authorization: basic,
            "content-type": "application/x-www-form-urlencoded",
            accept: "application/json",
          },
          body: new URLSearchParams({ token, token_type_hint: "access_token" }),
          redirect: "error",
        });
        if (!response.ok) {
          const error = (await response.json().catch(() => ({}))) as { error?: unknown };
          throw new Error(
            `HTTP ${response.status}${typeof error.error === "string" ? ` ${error.error}` : ""}`,
          );
        }
        body = (await response.json()) as Record<string, unknown>;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new OAuthError(
          OAuthErrorCode.ServerError,
          `Token introspection at ${endpoint} failed: ${reason}`,
        );
      }
      if (body.active !== true) throw invalid("Token is not active");
      if (body.iss !== undefined && body.iss !== options.issuer) {
        throw invalid("Token was not issued by the expected authorization server");
      }
      const audiences = typeof body.aud === "string" ? [body.aud] : Array.isArray(body.aud) ? body.aud : [];
      if (!audiences.includes(options.audience)) throw invalid("Token was not issued for this resource");
      const now = Date.now() / 1000;
      if (typeof body.nbf === "number" && body.nbf > now + options.clockToleranceSeconds) {
        throw invalid("Token is not yet valid");
      }
      const exp = typeof body.exp === "number" ? body.exp + options.clockToleranceSeconds : undefined;
      const { active: _, ...claims } = body;
      return {
        token,
        clientId: typeof body.client_id === "string" ? body.client_id : "",
        scopes: scopesOf(body.scope),
        ...(exp !== undefined ? { expiresAt: exp } : {}),
        resource: new URL(options.audience),
        extra: { claims },
      };
    },
  };
}
