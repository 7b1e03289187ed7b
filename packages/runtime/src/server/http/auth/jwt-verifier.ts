import { OAuthError, OAuthErrorCode, type OAuthTokenVerifier } from "@modelcontextprotocol/server";
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from "jose";
import type { IssuerMetadata } from "./issuer-metadata.ts";

/**
 * Checks JWT access tokens (RFC 9068) locally: signature against the authorization server's
 * JWKS (fetched, cached, fetched again for an unknown key id after `cooldownMs`), issuer,
 * audience (this server's canonical URI), `exp` (required) and `nbf`.
 */
export function jwtVerifier(options: {
  issuer: string;
  audience: string;
  jwksUri: string | undefined;
  metadata: () => Promise<IssuerMetadata>;
  clockToleranceSeconds: number;
  cooldownMs: number;
}): OAuthTokenVerifier {
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  const keySet = async () => {
    if (keys) return keys;
    const uri = options.jwksUri ?? (await options.metadata()).jwks_uri;
    if (!uri) {
      throw new OAuthError(
        OAuthErrorCode.ServerError,
        `The metadata of ${options.issuer} names no jwks_uri; give --auth-jwks (auth.jwksUri) or use introspection`,
      );
    }
    keys = createRemoteJWKSet(new URL(uri), { cooldownDuration: options.cooldownMs });
    return keys;
  };
  return {
    async verifyAccessToken(token) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, await keySet(), {
          issuer: options.issuer,
          audience: options.audience,
          requiredClaims: ["exp"],
          clockTolerance: options.clockToleranceSeconds,
        }));
      } catch (error) {
        throw tokenError(error);
      }
      return {
        token,
        clientId: stringClaim(payload.client_id) ?? stringClaim(payload.azp) ?? "",
        scopes: scopesOf(payload.scope ?? payload.scp),
        // The SDK checks `exp` again, without leeway.
        expiresAt: (payload.exp ?? 0) + options.clockToleranceSeconds,
        resource: new URL(options.audience),
        extra: { claims: payload },
      };
    },
  };
}

/** A token's scopes: `scope` (space-separated, RFC 9068) or `scp` (a list, as some servers send). */
export function scopesOf(claim: unknown): string[] {
  if (typeof claim === "string") return claim.split(" ").filter(Boolean);
  if (Array.isArray(claim)) return claim.filter((s): s is string => typeof s === "string");
  return [];
}

function stringClaim(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Why a token is refused, as an OAuth error (401 `invalid_token`, or 500 when the keys cannot be had). */
function tokenError(error: unknown): OAuthError {
  if (error instanceof OAuthError) return error;
  const invalid = (message: string) => new OAuthError(OAuthErrorCode.InvalidToken, message);
  if (error instanceof errors.JWTExpired) return invalid("Token has expired");
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case "nbf":
        return invalid("Token is not yet valid");
      case "aud":
        return invalid("Token was not issued for this resource");
      case "iss":
        return invalid("Token was not issued by the expected authorization server");
      default:
        return invalid(`Token claim ${error.claim} is invalid: ${error.reason}`);
    }
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return invalid("Token signature is invalid");
  if (error instanceof errors.JWKSNoMatchingKey) return invalid("Token is signed with an unknown key");
  if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError)) {
    const reason = error instanceof Error ? error.message : String(error);
    return new OAuthError(OAuthErrorCode.ServerError, `Could not get the signing keys: ${reason}`);
  }
  return invalid("Token is not a valid JWT");
}
