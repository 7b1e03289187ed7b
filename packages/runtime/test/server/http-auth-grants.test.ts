import type { ToolContext } from "@mcp-gen/runtime";
import { connectHttp, oauthDpop, oauthEnterprise, oauthJwtBearer } from "@mcp-gen/runtime/client";
import { defineManifest, type ManifestTool, type RunningServer, serve } from "@mcp-gen/runtime/server";
import { createValidator } from "@mcp-gen/runtime/validation";
import { auth } from "@modelcontextprotocol/client";
import { decodeJwt } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ENTERPRISE_CLIENT, type GrantServer, IDP_CLIENT, startGrantServer } from "./support/grant-server.ts";

// mcp-gen's OAuth helpers for the grants beyond client credentials, against an mcp-gen server on
// 127.0.0.1 that checks the tokens (JWTs of the grant server, for its URL as audience): a
// workload's JWT-bearer grant (SEP-1933), enterprise-managed authorization (token exchange at the
// identity provider, then the JWT-bearer grant with the ID-JAG, SEP-990), DPoP-bound tokens.

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

const whoami: ManifestTool = {
  definition: { name: "whoami", inputSchema: { type: "object" } },
  input: createValidator(
    Object.assign(() => true, { errors: null }),
    'arguments of tool "whoami"',
  ),
  resultWrapped: false,
  usesContext: true,
  invoke: (_args: unknown, ctx: ToolContext | undefined) => ({
    subject: ctx!.auth?.subject ?? null,
    clientId: ctx!.auth?.clientId ?? null,
  }),
};
const manifest = defineManifest({ server: "notes", tools: [whoami] });

let grants: GrantServer;
let server: RunningServer;
beforeAll(async () => {
  grants = await startGrantServer();
  server = await serve(manifest, {
    transport: "http",
    http: { port: 0, auth: { issuer: grants.issuer, jwksCooldownMs: 0 } },
    onError: () => {},
  });
});
afterAll(async () => {
  await server?.close();
  await grants?.close();
});

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) await o.close();
  grants.seen.length = 0;
});

function text(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0] as { text: string }).text;
}

describe.each(["2026-07-28", "legacy"] as const)("over HTTP, protocol %s", (protocol) => {
  it("oauthJwtBearer: the workload's JWT is the assertion of a JWT-bearer grant", async () => {
    const connection = await connectHttp(server.url!, {
      protocol,
      authProvider: oauthJwtBearer({ clientId: "reporting", assertion: () => grants.workloadJwt() }),
    });
    open.push(connection);
    const seen = JSON.parse(text(await connection.client.callTool({ name: "whoami", arguments: {} })));
    expect(seen).toEqual({ subject: "reporting-workload", clientId: "reporting" });
    expect(
      grants.seen.map((r) => [r.endpoint, r.grantType, r.status, r.params.client_id, r.params.resource]),
    ).toEqual([["as", JWT_BEARER, 200, "reporting", server.url]]);
  });

  it("oauthEnterprise: the ID token becomes an ID-JAG at the identity provider, then a token", async () => {
    const connection = await connectHttp(server.url!, {
      protocol,
      authProvider: oauthEnterprise({
        clientId: ENTERPRISE_CLIENT.clientId,
        clientSecret: ENTERPRISE_CLIENT.clientSecret,
        issuer: grants.issuer,
        idp: {
          tokenEndpoint: grants.idpTokenEndpoint,
          clientId: IDP_CLIENT,
          idToken: () => grants.idToken("ada"),
        },
      }),
    });
    open.push(connection);
    const seen = JSON.parse(text(await connection.client.callTool({ name: "whoami", arguments: {} })));
    expect(seen).toEqual({ subject: "ada", clientId: "chat-app" });
    expect(grants.seen.map((r) => [r.endpoint, r.grantType, r.status])).toEqual([
      ["idp", TOKEN_EXCHANGE, 200],
      ["as", JWT_BEARER, 200],
    ]);
    expect(grants.seen[0]!.params).toMatchObject({ audience: grants.issuer, resource: server.url });
  });
});

describe("grants refused and tokens bound", () => {
  it("oauthJwtBearer: a refused assertion fails the connection after one token request", async () => {
    await expect(
      connectHttp(server.url!, {
        authProvider: oauthJwtBearer({
          clientId: "reporting",
          assertion: await grants.workloadJwt({ expiresIn: "-60s" }),
        }),
      }),
    ).rejects.toThrow(/invalid_grant/);
    expect(grants.seen.map((r) => [r.grantType, r.status, r.error])).toEqual([
      [JWT_BEARER, 400, "invalid_grant"],
    ]);
  });

  it("oauthDpop: the token request carries a proof and the token is bound to the client's key", async () => {
    const provider = oauthDpop(
      oauthJwtBearer({ clientId: "reporting", assertion: () => grants.workloadJwt() }),
    );
    expect(await auth(provider, { serverUrl: server.url! })).toBe("AUTHORIZED");
    const session = await provider.dpop!();
    const tokens = await provider.tokens();
    expect(tokens?.token_type).toBe("DPoP");
    expect(decodeJwt(tokens!.access_token).cnf).toEqual({ jkt: session!.thumbprint });
    expect(grants.seen.map((r) => [r.grantType, r.status, r.dpopJkt])).toEqual([
      [JWT_BEARER, 200, session!.thumbprint],
    ]);
    // One session for the provider's life: the same key signs every proof.
    expect(await provider.dpop!()).toBe(session);
  });
});
