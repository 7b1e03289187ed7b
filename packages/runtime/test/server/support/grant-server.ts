import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  calculateJwkThumbprint,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  jwtVerify,
  SignJWT,
} from "jose";

/** A confidential client of the grant server (the enterprise case: `client_secret_basic`). */
export const ENTERPRISE_CLIENT = { clientId: "chat-app", clientSecret: "chat-app-secret-0123456789" };
/** The client the identity provider knows the chat app as. */
export const IDP_CLIENT = "chat-app-at-idp";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";

/** A token request the server received: its grant and what it answered. */
export interface SeenTokenRequest {
  endpoint: "as" | "idp";
  grantType: string;
  params: Record<string, string>;
  /** The `jkt` of a valid DPoP proof on the request. */
  dpopJkt?: string;
  status: number;
  error?: string;
}

/**
 * An authorization server for the grants oidc-provider lacks, on 127.0.0.1 (node:http and jose):
 * the JWT-bearer grant (RFC 7523) for workload JWTs (public clients) and for identity assertion
 * grants (ID-JAG, SEP-990, confidential clients), DPoP-bound tokens (RFC 9449) when the request
 * carries a proof, and under `/idp` an enterprise identity provider's token exchange (RFC 8693) of
 * an ID token for an ID-JAG. Access tokens are JWTs (RFC 9068) for the `resource` asked for.
 */
export interface GrantServer {
  /** The issuer of the authorization server, `http://127.0.0.1:<port>`. */
  readonly issuer: string;
  /** The identity provider's token endpoint. */
  readonly idpTokenEndpoint: string;
  /** Token requests in order. */
  readonly seen: SeenTokenRequest[];
  /** A workload JWT from the platform (`sub` the workload), audience the issuer unless given. */
  workloadJwt(options?: { subject?: string; audience?: string; expiresIn?: string }): Promise<string>;
  /** An ID token of the identity provider for `subject`, audience the IdP client. */
  idToken(subject: string): Promise<string>;
  close(): Promise<void>;
}

export async function startGrantServer(): Promise<GrantServer> {
  const signing = await generateKeyPair("ES256", { extractable: true });
  const publicJwk: JWK = { ...(await exportJWK(signing.publicKey)), kid: "as-1", alg: "ES256", use: "sig" };
  const platform = await generateKeyPair("ES256");
  const idp = await generateKeyPair("ES256");
  const seen: SeenTokenRequest[] = [];
  const http: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const idpIssuer = `${issuer}/idp`;

  function send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
    res.end(JSON.stringify(body));
  }

  async function form(req: IncomingMessage): Promise<Record<string, string>> {
    let body = "";
    for await (const chunk of req) body += chunk;
    return Object.fromEntries(new URLSearchParams(body));
  }

  /** The `jkt` of a valid DPoP proof for this token endpoint, `undefined` without one. */
  async function dpopJkt(req: IncomingMessage, url: string): Promise<string | undefined> {
    const proof = req.headers.dpop;
    if (typeof proof !== "string") return undefined;
    const header = decodeProtectedHeader(proof);
    if (header.typ !== "dpop+jwt" || !header.jwk) throw new Error("invalid_dpop_proof");
    const { payload } = await jwtVerify(proof, await importJWK(header.jwk, header.alg), {
      typ: "dpop+jwt",
    });
    if (payload.htm !== "POST" || payload.htu !== url || typeof payload.jti !== "string") {
      throw new Error("invalid_dpop_proof");
    }
    return calculateJwkThumbprint(header.jwk, "sha256");
  }

  async function accessToken(claims: Record<string, unknown>, resource: string, jkt: string | undefined) {
    const token = await new SignJWT({ ...claims, ...(jkt ? { cnf: { jkt } } : {}) })
      .setProtectedHeader({ alg: "ES256", kid: "as-1", typ: "at+jwt" })
      .setIssuer(issuer)
      .setAudience(resource)
      .setIssuedAt()
      .setExpirationTime("10m")
      .setJti(randomUUID())
      .sign(signing.privateKey);
    return { access_token: token, token_type: jkt ? "DPoP" : "Bearer", expires_in: 600 };
  }

  async function asToken(req: IncomingMessage, params: Record<string, string>) {
    const url = `${issuer}/token`;
    const jkt = await dpopJkt(req, url);
    if (params.grant_type !== JWT_BEARER) return { status: 400, body: { error: "unsupported_grant_type" } };
    const basic = req.headers.authorization?.startsWith("Basic ")
      ? Buffer.from(req.headers.authorization.slice(6), "base64")
          .toString()
          .split(":")
          .map(decodeURIComponent)
      : undefined;
    const resource = params.resource ?? "";
    try {
      if (basic) {
        const [id, secret] = basic;
        if (id !== ENTERPRISE_CLIENT.clientId || secret !== ENTERPRISE_CLIENT.clientSecret) {
          return { status: 401, body: { error: "invalid_client" } };
        }
        const { payload } = await jwtVerify(params.assertion ?? "", idp.publicKey, {
          typ: "oauth-id-jag+jwt",
          issuer: idpIssuer,
          audience: issuer,
        });
        if (payload.client_id !== id || payload.resource !== resource) {
          return { status: 400, body: { error: "invalid_grant" } };
        }
        const body = await accessToken(
          { sub: payload.sub, client_id: id, scope: params.scope ?? "" },
          resource,
          jkt,
        );
        return { status: 200, body, jkt };
      }
      const { payload } = await jwtVerify(params.assertion ?? "", platform.publicKey, { audience: issuer });
      const body = await accessToken(
        { sub: payload.sub, client_id: params.client_id, scope: params.scope ?? "" },
        resource,
        jkt,
      );
      return { status: 200, body, jkt };
    } catch {
      return { status: 400, body: { error: "invalid_grant" } };
    }
  }

  async function idpToken(params: Record<string, string>) {
    if (params.grant_type !== TOKEN_EXCHANGE)
      return { status: 400, body: { error: "unsupported_grant_type" } };
    try {
      const { payload } = await jwtVerify(params.subject_token ?? "", idp.publicKey, {
        issuer: idpIssuer,
        audience: IDP_CLIENT,
      });
      if (
        params.subject_token_type !== "urn:ietf:params:oauth:token-type:id_token" ||
        params.requested_token_type !== "urn:ietf:params:oauth:token-type:id-jag" ||
        params.client_id !== IDP_CLIENT
      ) {
        return { status: 400, body: { error: "invalid_request" } };
      }
      const grant = await new SignJWT({
        sub: payload.sub,
        client_id: ENTERPRISE_CLIENT.clientId,
        resource: params.resource,
      })
        .setProtectedHeader({ alg: "ES256", typ: "oauth-id-jag+jwt" })
        .setIssuer(idpIssuer)
        .setAudience(params.audience ?? "")
        .setIssuedAt()
        .setExpirationTime("5m")
        .setJti(randomUUID())
        .sign(idp.privateKey);
      return {
        status: 200,
        body: {
          access_token: grant,
          issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
          token_type: "N_A",
        },
      };
    } catch {
      return { status: 400, body: { error: "invalid_grant" } };
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", issuer).pathname;
    if (req.method === "GET" && path === "/.well-known/oauth-authorization-server") {
      return send(res, 200, {
        issuer,
        // RFC 8414 requires it; no grant here uses it.
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        grant_types_supported: [JWT_BEARER],
        token_endpoint_auth_methods_supported: ["none", "client_secret_basic"],
        dpop_signing_alg_values_supported: ["ES256"],
        response_types_supported: [],
      });
    }
    if (req.method === "GET" && path === "/jwks") return send(res, 200, { keys: [publicJwk] });
    if (req.method === "POST" && (path === "/token" || path === "/idp/token")) {
      const params = await form(req);
      const endpoint = path === "/token" ? "as" : "idp";
      const answer: { status: number; body: Record<string, unknown>; jkt?: string } =
        endpoint === "as" ? await asToken(req, params) : await idpToken(params);
      seen.push({
        endpoint,
        grantType: params.grant_type ?? "",
        params,
        ...(answer.jkt ? { dpopJkt: answer.jkt } : {}),
        status: answer.status,
        ...(typeof answer.body.error === "string" ? { error: answer.body.error } : {}),
      });
      return send(res, answer.status, answer.body);
    }
    send(res, 404, { error: "not_found" });
  }

  return {
    issuer,
    idpTokenEndpoint: `${issuer}/idp/token`,
    seen,
    workloadJwt: ({ subject = "reporting-workload", audience = issuer, expiresIn = "5m" } = {}) =>
      new SignJWT({})
        .setProtectedHeader({ alg: "ES256" })
        .setIssuer("https://platform.example")
        .setSubject(subject)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime(expiresIn)
        .sign(platform.privateKey),
    idToken: (subject) =>
      new SignJWT({ email: `${subject}@example.com` })
        .setProtectedHeader({ alg: "ES256" })
        .setIssuer(idpIssuer)
        .setSubject(subject)
        .setAudience(IDP_CLIENT)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(idp.privateKey),
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
