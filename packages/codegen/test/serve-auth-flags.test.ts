import { describe, expect, it } from "vitest";
import { authFromFlags } from "../src/serve/auth-flags.ts";

describe("mcp-gen serve --auth-* flags", () => {
  it("make the auth option of HTTP serving", () => {
    expect(
      authFromFlags(
        {
          http: true,
          authIssuer: "https://auth.example.com",
          authAudience: "https://mcp.example.com/mcp",
          authJwks: "https://auth.example.com/jwks",
          authScopesOnList: "all",
          authScope: ["mcp", "notes:read"],
        },
        {},
      ),
    ).toStrictEqual({
      ok: true,
      auth: {
        issuer: "https://auth.example.com",
        audience: "https://mcp.example.com/mcp",
        jwksUri: "https://auth.example.com/jwks",
        scopesOnList: "all",
        requiredScopes: ["mcp", "notes:read"],
      },
    });
    expect(authFromFlags({ http: true }, {})).toStrictEqual({ ok: true, auth: undefined });
  });

  it("read the introspection credentials from the environment", () => {
    const flags = {
      http: true,
      authIssuer: "https://a.example",
      authIntrospection: "https://a.example/introspect",
    };
    expect(
      authFromFlags(flags, { MCP_GEN_AUTH_CLIENT_ID: "rs", MCP_GEN_AUTH_CLIENT_SECRET: "s" }),
    ).toStrictEqual({
      ok: true,
      auth: {
        issuer: "https://a.example",
        introspection: { endpoint: "https://a.example/introspect", clientId: "rs", clientSecret: "s" },
      },
    });
    expect(authFromFlags(flags, {})).toStrictEqual({
      ok: false,
      message:
        "--auth-introspection needs the server's client credentials at the authorization server in MCP_GEN_AUTH_CLIENT_ID and MCP_GEN_AUTH_CLIENT_SECRET",
    });
  });

  it.each([
    [
      { http: true, authAudience: "https://m.example/mcp" },
      {},
      "--auth-audience needs --auth-issuer <url> (the authorization server)",
    ],
    [
      { authIssuer: "https://a.example" },
      {},
      "--auth-issuer needs --http: authorization applies to HTTP serving only",
    ],
    [
      { http: true, authIssuer: "auth.example.com" },
      {},
      '--auth-issuer takes an absolute http(s) URL, got "auth.example.com"',
    ],
    [
      { http: true, authIssuer: "https://a.example", authScopesOnList: "some" },
      {},
      '--auth-scopes-on-list takes "filter" or "all", got "some"',
    ],
    [
      { http: true, host: "0.0.0.0", authIssuer: "https://a.example" },
      {},
      "--auth-issuer on --host 0.0.0.0 needs --auth-audience <url>: the URL clients reach this server at (the tokens' audience), e.g. https://mcp.example.com/mcp",
    ],
    [
      { http: true, authIssuer: "https://a.example" },
      { MCP_GEN_TOKEN: "t" },
      "MCP_GEN_TOKEN (the static token, for local use) and --auth-issuer exclude each other: unset MCP_GEN_TOKEN",
    ],
  ])("refuse %j", (flags, env, message) => {
    expect(authFromFlags(flags, env)).toStrictEqual({ ok: false, message });
  });
});
