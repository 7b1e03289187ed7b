import type { ToolContext } from "@mcp-gen/runtime";
import { connectHttp, oauthClientCredentials } from "@mcp-gen/runtime/client";
import {
  type CallRecord,
  defineManifest,
  type HttpOptions,
  type ManifestTool,
  type RunningServer,
  serve,
} from "@mcp-gen/runtime/server";
import { createValidator } from "@mcp-gen/runtime/validation";
import { Client, InsufficientScopeError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthorizationServer,
  INTROSPECTOR,
  MACHINE,
  READER,
  startAuthorizationServer,
} from "./support/authorization-server.ts";
import { modernEnvelope } from "./support/envelope.ts";

/** A tool of the test manifest: no arguments, returns what `run` gives. */
function tool(name: string, run: (ctx: ToolContext) => unknown, scopes?: string[]): ManifestTool {
  return {
    definition: { name, inputSchema: { type: "object" } },
    input: createValidator(
      Object.assign(() => true, { errors: null }),
      `arguments of tool "${name}"`,
    ),
    resultWrapped: false,
    usesContext: true,
    ...(scopes ? { scopes } : {}),
    invoke: (_args: unknown, ctx: ToolContext | undefined) => run(ctx!),
  };
}

const manifest = defineManifest({
  server: "notes",
  tools: [
    tool("whoami", (ctx) => ({ auth: ctx.auth ?? null, era: ctx.era })),
    tool("read_notes", () => "a note", ["notes:read"]),
    tool("write_note", () => "written", ["notes:write"]),
  ],
});

let as: AuthorizationServer;
/** The resource the introspection-mode server is, so the provider issues it opaque tokens. */
const OPAQUE = "http://127.0.0.1:1/opaque";
const OTHER_OPAQUE = "http://127.0.0.1:1/other-opaque";
beforeAll(async () => {
  as = await startAuthorizationServer({ opaqueResources: [OPAQUE, OTHER_OPAQUE] });
});
afterAll(() => as.close());

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

async function start(
  auth: Partial<NonNullable<HttpOptions["auth"]>> = {},
  options: { onCall?: (record: CallRecord) => void } = {},
): Promise<RunningServer> {
  const server = await serve(manifest, {
    transport: "http",
    http: { port: 0, auth: { issuer: as.issuer, jwksCooldownMs: 0, ...auth } },
    onError: () => {},
    ...options,
  });
  open.push(server);
  return server;
}

type Era = "modern" | "legacy";
const ERAS: Era[] = ["modern", "legacy"];

async function connect(url: string, era: Era, token: string): Promise<Client> {
  const client = new Client(
    { name: "auth-test", version: "1.0.0" },
    { versionNegotiation: { mode: era === "modern" ? { pin: "2026-07-28" } : "legacy" } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  open.push(client);
  return client;
}

function text(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

/** A raw 2026-07-28 `tools/list` POST, as any HTTP client would send it. */
function rawPost(url: string, authorization?: string) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: {
        _meta: modernEnvelope(),
      },
    }),
  });
}

/** The OAuth error body of a refusal (RFC 6750). */
async function oauthError(response: Response): Promise<{ error: string; error_description?: string }> {
  return (await response.json()) as { error: string; error_description?: string };
}

describe("protected resource metadata", () => {
  it("is served at the root and path-suffixed well-known URLs, outside auth", async () => {
    const server = await start();
    const origin = new URL(server.url!).origin;
    for (const path of [
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp",
    ]) {
      const response = await fetch(origin + path);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: server.url,
        authorization_servers: [as.issuer],
        scopes_supported: ["notes:read", "notes:write"],
        resource_name: "notes",
        bearer_methods_supported: ["header"],
      });
    }
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${origin}/readyz`)).json()).toEqual({ status: "ready" });
  });

  it("names the configured audience, and the server refuses to start with a bad one", async () => {
    const server = await start({ audience: "https://mcp.example.com/mcp" });
    const origin = new URL(server.url!).origin;
    const prm = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as {
      resource: string;
    };
    expect(prm.resource).toBe("https://mcp.example.com/mcp");
    const challenge = (await rawPost(server.url!)).headers.get("www-authenticate");
    expect(challenge).toContain(
      'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"',
    );
    await expect(start({ audience: "mcp.example.com" })).rejects.toThrow(/auth.audience.*absolute URL/);
    await expect(start({ issuer: "http://auth.example.com" })).rejects.toThrow(/HTTPS/);
  });

  it("cannot be combined with the static token", async () => {
    await expect(
      serve(manifest, {
        transport: "http",
        http: { port: 0, token: "s3cret", auth: { issuer: as.issuer } },
      }),
    ).rejects.toThrow(/exclude each other/);
  });
});

describe("refused tokens", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve(manifest, {
      transport: "http",
      http: { port: 0, auth: { issuer: as.issuer } },
      onError: () => {},
    });
  });
  afterAll(() => server.close());

  const refusedWith = async (authorization: string | undefined, description: RegExp) => {
    const response = await rawPost(server.url!, authorization);
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate")!;
    expect(challenge).toMatch(/^Bearer error="invalid_token"/);
    expect(challenge).toContain(
      `resource_metadata="${new URL(server.url!).origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect((await oauthError(response)).error_description).toMatch(description);
  };
  const now = () => Math.floor(Date.now() / 1000);
  const claims = () => ({
    iss: as.issuer,
    aud: server.url,
    sub: "machine",
    client_id: "machine",
    scope: "notes:read",
    iat: now(),
    exp: now() + 600,
  });

  it("missing", () => refusedWith(undefined, /Missing Authorization/));
  it("not a bearer token", () => refusedWith("Basic Zm9vOmJhcg==", /expected 'Bearer TOKEN'/));
  it("expired", async () =>
    refusedWith(
      `Bearer ${await as.forge({ ...claims(), iat: now() - 7200, exp: now() - 3600 })}`,
      /expired/,
    ));
  it("not yet valid", async () =>
    refusedWith(`Bearer ${await as.forge({ ...claims(), nbf: now() + 3600 })}`, /not yet valid/));
  it("without exp", async () => {
    const { exp: _, ...rest } = claims();
    await refusedWith(`Bearer ${await as.forge(rest)}`, /Token claim exp is invalid/);
  });
  it("for another audience (issued by the provider)", async () => {
    const token = await as.token({ client: MACHINE, resource: "https://other.example.com/mcp" });
    await refusedWith(`Bearer ${token}`, /not issued for this resource/);
  });
  it("from another issuer", async () =>
    refusedWith(
      `Bearer ${await as.forge({ ...claims(), iss: "https://evil.example.com" })}`,
      /expected authorization server/,
    ));
  it("with a tampered signature", async () => {
    const token = await as.token({ client: MACHINE, resource: server.url! });
    const [header, payload, signature] = token.split(".");
    const flipped = signature!.startsWith("A") ? `B${signature!.slice(1)}` : `A${signature!.slice(1)}`;
    await refusedWith(`Bearer ${header}.${payload}.${flipped}`, /signature is invalid/);
  });
  it("with a tampered payload", async () => {
    const token = await as.token({ client: MACHINE, resource: server.url! });
    const [header, , signature] = token.split(".");
    const payload = Buffer.from(
      JSON.stringify({ ...claims(), scope: "notes:read notes:write admin" }),
    ).toString("base64url");
    await refusedWith(`Bearer ${header}.${payload}.${signature}`, /signature is invalid/);
  });
  it("that is no JWT", () => refusedWith("Bearer not-a-jwt", /not a valid JWT/));
});

describe.each(ERAS)("a client of the %s era", (era) => {
  it("calls a tool with a valid token, and the tool sees the principal", async () => {
    const server = await start();
    const token = await as.token({ client: MACHINE, resource: server.url! });
    const client = await connect(server.url!, era, token);
    const seen = JSON.parse(text(await client.callTool({ name: "whoami", arguments: {} })));
    expect(seen.era).toBe(era);
    expect(seen.auth).toMatchObject({
      subject: "machine",
      clientId: "machine",
      scopes: ["notes:read", "notes:write"],
      claims: { iss: as.issuer, aud: server.url, client_id: "machine" },
    });
    expect(seen.auth.claims).not.toHaveProperty("token");
    expect(JSON.stringify(seen)).not.toContain(token);
    expect(text(await client.callTool({ name: "write_note", arguments: {} }))).toBe("written");
  });

  it("names the principal (the token's subject) in the call log, never the token", async () => {
    const records: CallRecord[] = [];
    const server = await start({}, { onCall: (record) => records.push(record) });
    const token = await as.token({ client: MACHINE, resource: server.url! });
    const client = await connect(server.url!, era, token);
    await client.callTool({ name: "whoami", arguments: {} });
    expect(records).toMatchObject([
      {
        kind: "tool",
        name: "whoami",
        outcome: "ok",
        principal: "machine",
        era: era === "modern" ? "2026-07-28" : "2025",
      },
    ]);
    expect(JSON.stringify(records)).not.toContain(token);
  });

  it("is refused a tool without its scope (403 with the scope) and does not see it listed", async () => {
    const server = await start();
    const token = await as.token({ client: READER, resource: server.url! });
    const client = await connect(server.url!, era, token);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["whoami", "read_notes"]);
    expect(text(await client.callTool({ name: "read_notes", arguments: {} }))).toBe("a note");
    const refusal = await client.callTool({ name: "write_note", arguments: {} }).catch((e: unknown) => e);
    // The SDK client reads the 403 challenge: the scope to ask for.
    expect(refusal).toBeInstanceOf(InsufficientScopeError);
    expect(String(refusal)).toContain('required "notes:write"');
  });

  it("lists every tool with scopesOnList: all", async () => {
    const server = await start({ scopesOnList: "all" });
    const token = await as.token({ client: READER, resource: server.url! });
    const client = await connect(server.url!, era, token);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      "whoami",
      "read_notes",
      "write_note",
    ]);
  });
});

describe("insufficient scope on the wire", () => {
  it.each(
    ERAS,
  )("answers 403 with WWW-Authenticate error=insufficient_scope and the scope (%s)", async (era) => {
    const server = await start();
    const token = await as.token({ client: READER, resource: server.url! });
    const modern = era === "modern";
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${token}`,
    };
    let sessionId: string | undefined;
    if (!modern) {
      const init = await fetch(server.url!, {
        method: "POST",
        headers,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 0,
          method: "initialize",
          params: {
            protocolVersion: "2025-11-25",
            capabilities: {},
            clientInfo: { name: "raw", version: "1" },
          },
        }),
      });
      sessionId = init.headers.get("mcp-session-id")!;
      await init.body?.cancel();
    }
    const response = await fetch(server.url!, {
      method: "POST",
      headers: {
        ...headers,
        ...(modern
          ? { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "write_note" }
          : {}),
        ...(sessionId ? { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" } : {}),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          name: "write_note",
          arguments: {},
          ...(modern
            ? {
                _meta: modernEnvelope(),
              }
            : {}),
        },
      }),
    });
    expect(response.status).toBe(403);
    const challenge = response.headers.get("www-authenticate")!;
    expect(challenge).toMatch(/^Bearer error="insufficient_scope"/);
    expect(challenge).toContain('scope="notes:write"');
    expect(challenge).toContain(
      `resource_metadata="${new URL(server.url!).origin}/.well-known/oauth-protected-resource/mcp"`,
    );
  });
});

describe("key rotation", () => {
  it("picks up a new signing key (unknown kid: the JWKS is fetched again)", async () => {
    const server = await start();
    const before = await as.token({ client: MACHINE, resource: server.url! });
    const first = await connect(server.url!, "modern", before);
    expect(text(await first.callTool({ name: "read_notes", arguments: {} }))).toBe("a note");
    const oldKid = as.currentKid;
    await as.rotateKeys();
    expect(as.currentKid).not.toBe(oldKid);
    const after = await as.token({ client: MACHINE, resource: server.url! });
    expect(JSON.parse(Buffer.from(after.split(".")[0]!, "base64url").toString()).kid).toBe(as.currentKid);
    const second = await connect(server.url!, "legacy", after);
    expect(text(await second.callTool({ name: "read_notes", arguments: {} }))).toBe("a note");
  });
});

describe("introspection (opaque tokens)", () => {
  it.each(ERAS)("checks tokens at the provider's introspection endpoint (%s)", async (era) => {
    // The audience is fixed so the provider knows to issue opaque tokens for it.
    const server = await start({
      audience: OPAQUE,
      introspection: { clientId: INTROSPECTOR.clientId, clientSecret: INTROSPECTOR.clientSecret },
    });
    const token = await as.token({ client: READER, resource: OPAQUE });
    expect(token.split(".")).toHaveLength(1);
    const client = await connect(server.url!, era, token);
    const seen = JSON.parse(text(await client.callTool({ name: "whoami", arguments: {} })));
    expect(seen.auth).toMatchObject({ clientId: "reader", scopes: ["notes:read"], claims: { aud: OPAQUE } });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["whoami", "read_notes"]);

    const unknown = await rawPost(server.url!, "Bearer not-a-token-the-provider-issued");
    expect(unknown.status).toBe(401);
    expect((await oauthError(unknown)).error_description).toBe("Token is not active");
    const elsewhere = await as.token({ client: READER, resource: OTHER_OPAQUE });
    const wrongAudience = await rawPost(server.url!, `Bearer ${elsewhere}`);
    expect(wrongAudience.status).toBe(401);
    expect((await oauthError(wrongAudience)).error_description).toBe(
      "Token was not issued for this resource",
    );
  });
});

describe.each(ERAS)("an OAuth client (client credentials) of the %s era", (era) => {
  const protocol = era === "modern" ? "2026-07-28" : "legacy";

  it("discovers the authorization server from the 401, gets a token for the server and calls a scoped tool", async () => {
    const server = await start();
    const connection = await connectHttp(server.url!, {
      protocol,
      authProvider: oauthClientCredentials({
        clientId: MACHINE.clientId,
        clientSecret: MACHINE.clientSecret,
        issuer: as.issuer,
      }),
    });
    open.push(connection);
    expect(connection.era).toBe(era);
    expect(text(await connection.client.callTool({ name: "write_note", arguments: {} }))).toBe("written");
    const seen = JSON.parse(text(await connection.client.callTool({ name: "whoami", arguments: {} })));
    expect(seen.auth).toMatchObject({ clientId: "machine", claims: { aud: server.url, iss: as.issuer } });
  });

  it("steps up on 403 insufficient_scope: asks for the scope the server names", async () => {
    // The 401 challenge names the scope every request needs: the first token has only that one.
    const server = await start({ scopesOnList: "all", requiredScopes: ["notes:read"] });
    const connection = await connectHttp(server.url!, {
      protocol,
      authProvider: oauthClientCredentials({
        clientId: MACHINE.clientId,
        clientSecret: MACHINE.clientSecret,
        issuer: as.issuer,
      }),
    });
    open.push(connection);
    const before = JSON.parse(text(await connection.client.callTool({ name: "whoami", arguments: {} })));
    expect(before.auth.scopes).toEqual(["notes:read"]);
    expect(text(await connection.client.callTool({ name: "write_note", arguments: {} }))).toBe("written");
  });

  it("refuses to send its secret to an authorization server other than its issuer", async () => {
    const server = await start();
    await expect(
      connectHttp(server.url!, {
        protocol,
        authProvider: oauthClientCredentials({
          clientId: MACHINE.clientId,
          clientSecret: MACHINE.clientSecret,
          issuer: "https://auth.example.com",
        }),
      }),
    ).rejects.toThrow(/issuer|authorization server/i);
  });
});

it("an OAuth client negotiating the protocol (auto) authorizes its probe too, and lands on 2026-07-28", async () => {
  // Without a scope in the 401 challenge a client asks for every scope of the metadata, which the
  // reader may not have: the challenge names the scope every request needs.
  const server = await start({ requiredScopes: ["notes:read"] });
  const connection = await connectHttp(server.url!, {
    authProvider: oauthClientCredentials({
      clientId: READER.clientId,
      clientSecret: READER.clientSecret,
      issuer: as.issuer,
    }),
  });
  open.push(connection);
  expect(connection.protocolVersion).toBe("2026-07-28");
  expect(text(await connection.client.callTool({ name: "read_notes", arguments: {} }))).toBe("a note");
});

describe("2025-era sessions under auth", () => {
  const initialize = (url: string, token: string) =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }),
    });
  const listIn = (url: string, sessionId: string, token: string) =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });

  it("serve only the principal that opened them: another valid token gets 404", async () => {
    const server = await start();
    const machine = await as.token({ client: MACHINE, resource: server.url! });
    const reader = await as.token({ client: READER, resource: server.url! });
    const opened = await initialize(server.url!, machine);
    const sessionId = opened.headers.get("mcp-session-id")!;
    await opened.body?.cancel();
    const own = await listIn(server.url!, sessionId, machine);
    expect(own.status).toBe(200);
    await own.body?.cancel();
    const other = await listIn(server.url!, sessionId, reader);
    expect(other.status).toBe(404);
    await other.body?.cancel();
  });

  it("stateless serving checks tokens and scopes too", async () => {
    const server = await serve(manifest, {
      transport: "http",
      http: { port: 0, stateless: true, auth: { issuer: as.issuer } },
      onError: () => {},
    });
    open.push(server);
    const token = await as.token({ client: READER, resource: server.url! });
    const client = await connect(server.url!, "legacy", token);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["whoami", "read_notes"]);
    const seen = JSON.parse(text(await client.callTool({ name: "whoami", arguments: {} })));
    expect(seen.auth.clientId).toBe("reader");
    await expect(client.callTool({ name: "write_note", arguments: {} })).rejects.toBeInstanceOf(
      InsufficientScopeError,
    );
  });
});
