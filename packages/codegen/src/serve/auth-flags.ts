import type { HttpOptions } from "@mcp-gen/runtime/server";

/** The `--auth-*` flags of `mcp-gen serve`. */
export interface AuthFlags {
  http?: boolean;
  host?: string;
  authIssuer?: string;
  authAudience?: string;
  authJwks?: string;
  authIntrospection?: string;
  authScopesOnList?: string;
  authScope?: string[];
}

/** Environment variables with the server's own client credentials, for `--auth-introspection`. */
export const AUTH_CLIENT_ID_ENV = "MCP_GEN_AUTH_CLIENT_ID";
export const AUTH_CLIENT_SECRET_ENV = "MCP_GEN_AUTH_CLIENT_SECRET";

/**
 * The `auth` HTTP option from the flags (`undefined` without `--auth-issuer`), or what is wrong
 * with them: flags that need others, URLs that are not absolute http(s) URLs, missing secrets.
 */
export function authFromFlags(
  flags: AuthFlags,
  env: NodeJS.ProcessEnv,
): { ok: true; auth: HttpOptions["auth"] } | { ok: false; message: string } {
  const fail = (message: string) => ({ ok: false as const, message });
  const others = (
    [
      ["--auth-audience", flags.authAudience],
      ["--auth-jwks", flags.authJwks],
      ["--auth-introspection", flags.authIntrospection],
      ["--auth-scopes-on-list", flags.authScopesOnList],
      ["--auth-scope", flags.authScope?.join(" ")],
    ] as const
  ).filter(([, value]) => value !== undefined);
  if (flags.authIssuer === undefined) {
    if (others.length === 0) return { ok: true, auth: undefined };
    return fail(`${others[0]![0]} needs --auth-issuer <url> (the authorization server)`);
  }
  if (!flags.http) return fail("--auth-issuer needs --http: authorization applies to HTTP serving only");
  if (env.MCP_GEN_TOKEN) {
    return fail(
      "MCP_GEN_TOKEN (the static token, for local use) and --auth-issuer exclude each other: unset MCP_GEN_TOKEN",
    );
  }
  for (const [flag, value] of [["--auth-issuer", flags.authIssuer], ...others] as const) {
    if (flag === "--auth-scopes-on-list" || flag === "--auth-scope") continue;
    if (!/^https?:\/\/[^/]/.test(value ?? "") || !URL.canParse(value ?? "")) {
      return fail(`${flag} takes an absolute http(s) URL, got ${JSON.stringify(value)}`);
    }
  }
  const bad = flags.authScope?.find((s) => !/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s));
  if (bad !== undefined) return fail(`--auth-scope ${JSON.stringify(bad)} is not an OAuth scope`);
  const loopback = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/i.test(flags.host ?? "127.0.0.1");
  if (!loopback && flags.authAudience === undefined) {
    return fail(
      `--auth-issuer on --host ${flags.host} needs --auth-audience <url>: the URL clients reach this server at (the tokens' audience), e.g. https://mcp.example.com/mcp`,
    );
  }
  const list = flags.authScopesOnList;
  if (list !== undefined && list !== "filter" && list !== "all") {
    return fail(`--auth-scopes-on-list takes "filter" or "all", got ${JSON.stringify(list)}`);
  }
  let introspection: { endpoint: string; clientId: string; clientSecret: string } | undefined;
  if (flags.authIntrospection !== undefined) {
    const clientId = env[AUTH_CLIENT_ID_ENV];
    const clientSecret = env[AUTH_CLIENT_SECRET_ENV];
    if (!clientId || !clientSecret) {
      return fail(
        `--auth-introspection needs the server's client credentials at the authorization server in ${AUTH_CLIENT_ID_ENV} and ${AUTH_CLIENT_SECRET_ENV}`,
      );
    }
    introspection = { endpoint: flags.authIntrospection, clientId, clientSecret };
  }
  return {
    ok: true,
    auth: {
      issuer: flags.authIssuer,
      ...(flags.authAudience ? { audience: flags.authAudience } : {}),
      ...(flags.authJwks ? { jwksUri: flags.authJwks } : {}),
      ...(introspection ? { introspection } : {}),
      ...(list ? { scopesOnList: list } : {}),
      ...(flags.authScope?.length ? { requiredScopes: flags.authScope } : {}),
    },
  };
}
