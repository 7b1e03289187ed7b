import type { AuthInfo } from "@modelcontextprotocol/server";
import type { AuthPrincipal } from "../context.ts";

/**
 * The caller a verified token names, as tools see it (`ctx.auth`): never the token itself, so
 * no tool can pass it on (MCP forbids token passthrough).
 */
export function principalOf(info: AuthInfo | undefined): AuthPrincipal | undefined {
  if (!info) return undefined;
  const claims = (info.extra?.claims ?? {}) as Record<string, unknown>;
  const subject = typeof claims.sub === "string" ? claims.sub : undefined;
  return {
    subject,
    clientId: info.clientId,
    scopes: [...info.scopes],
    claims,
    ...(info.expiresAt !== undefined ? { expiresAt: info.expiresAt } : {}),
  };
}

/** The scopes of `required` a caller's token lacks (none without authentication). */
export function missingScopes(
  required: readonly string[] | undefined,
  info: AuthInfo | undefined,
): readonly string[] {
  if (!required || required.length === 0 || !info) return [];
  return required.filter((scope) => !info.scopes.includes(scope));
}
