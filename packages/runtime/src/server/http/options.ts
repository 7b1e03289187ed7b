import type { HttpAuthOptions } from "./auth/options.ts";

/** Streamable HTTP settings of `serve(manifest, { transport: "http", http })`. */
export interface HttpOptions {
  /** TCP port; `0` picks a free one (read it from `RunningServer.url`). Default 3000. */
  port?: number;
  /** Interface to bind. Default `"127.0.0.1"`: only this machine can connect. */
  host?: string;
  /** Endpoint path. Default `"/mcp"`. */
  path?: string;
  /**
   * Health check path for load balancers: `GET` answers 200 `{"status":"ok"}`, or 503
   * `{"status":"draining"}` once `drain()` began. Not behind the token or Host checks (it tells
   * nothing else). Default `"/healthz"`.
   */
  healthPath?: string;
  /**
   * Readiness check path: `GET` answers 200 `{"status":"ready"}` while the server serves, 503
   * `{"status":"draining"}` once `drain()` began. Outside the Host, token and auth checks, like
   * `healthPath`. Default `"/readyz"`.
   */
  readyPath?: string;
  /**
   * What else readiness needs (a database, an upstream API …): called on every `readyPath` request
   * while the server serves; `false`, or a throw or rejection, answers 503 `{"status":"unavailable"}`
   * (the reason, if any, goes to `onError`, not to the prober).
   *
   * @example
   * serve(manifest, { transport: "http", http: { ready: async () => (await pool.query("select 1")).rowCount === 1 } });
   */
  ready?: () => boolean | Promise<boolean>;
  /**
   * No sessions: every POST is served by a fresh server, so replicas behind a load balancer
   * need no shared state (no GET stream, no server-to-client requests, no log level).
   */
  stateless?: boolean;
  /**
   * Accepted `Host` headers (DNS-rebinding protection). Default on loopback: `localhost`,
   * `127.0.0.1` and `[::1]` with the port; on other interfaces: not checked unless given.
   */
  allowedHosts?: string[];
  /**
   * Accepted `Origin` headers (requests without one, from non-browser clients, always pass).
   * Default: `http(s)://` + each allowed host; none when hosts are not checked.
   */
  allowedOrigins?: string[];
  /**
   * Require `Authorization: Bearer <token>` with this fixed secret on every request: for local
   * use (a server on this machine, one trusted client). A server others reach should use `auth`
   * (OAuth access tokens). Not together with `auth`.
   */
  token?: string;
  /** OAuth 2.1 authorization (MCP "Authorization"): access tokens checked on every request. */
  auth?: HttpAuthOptions;
  /** Largest request body accepted, in bytes. Default 4 MiB. */
  maxBodyBytes?: number;
  /** Deepest JSON nesting accepted in a request body. Default 100. */
  maxJsonDepth?: number;
  /**
   * Most concurrent 2025-era sessions. A new one evicts the least recently used idle session
   * (never one with a call in flight); only when every session has a call in flight is it refused
   * (HTTP 503). Default 1000.
   */
  maxSessions?: number;
  /**
   * Most sessions of one client — its principal when requests are authenticated (`auth`), else its
   * address (see `trustProxy`): a client at its share evicts its own least recently used idle
   * session, so one client flooding `initialize` cannot crowd others out. Default 100.
   */
  maxSessionsPerClient?: number;
  /**
   * Requests per client address: `requests` at once, refilled over `perMs`; beyond it HTTP 429
   * with `Retry-After`. Default: no limit.
   */
  rateLimit?: { requests: number; perMs: number };
  /**
   * Addresses of the reverse proxies in front (nginx, a load balancer): a request from one of them
   * counts, for `maxSessionsPerClient` and `rateLimit`, as coming from the right-most
   * `X-Forwarded-For` address that is not a trusted proxy. Without it every client behind a proxy
   * shares the proxy's address. Default: none (the peer's address counts).
   */
  trustProxy?: string[];
  /** A session unused this long is closed. Default 30 minutes. */
  sessionIdleMs?: number;
  /**
   * Replicas behind a load balancer: a name stamped on the 2025-era session ids this process mints
   * (`<route>.<uuid>`), from which the balancer sends a session's requests to the replica that
   * holds it (examples/ledger/deploy/nginx.conf). Letters, digits, `-` and `_`; at most 32.
   */
  sessionRoute?: string;
}

/** Checks `sessionRoute`; throws a clear error for a name a balancer could not match on. */
export function checkSessionRoute(route: string | undefined): void {
  if (route !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(route)) {
    throw new Error(
      `mcp-gen: the session route ${JSON.stringify(route)} must be 1 to 32 letters, digits, "-" or "_" (it starts every session id, e.g. "replica-1")`,
    );
  }
}

/** HTTP settings with every default applied. */
export interface ResolvedHttpOptions {
  port: number;
  host: string;
  path: string;
  healthPath: string;
  readyPath: string;
  ready: (() => boolean | Promise<boolean>) | undefined;
  stateless: boolean;
  allowedHosts: string[] | undefined;
  allowedOrigins: string[];
  token: string | undefined;
  maxBodyBytes: number;
  maxJsonDepth: number;
  maxSessions: number;
  maxSessionsPerClient: number;
  rateLimit: { requests: number; perMs: number } | undefined;
  trustProxy: string[];
  sessionIdleMs: number;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Applies defaults; host and origin lists depend on the port actually bound.
 *
 * @example
 * const options = resolveHttpOptions({ host: "127.0.0.1" }, 8787);
 * options.allowedHosts; // ["localhost:8787", "127.0.0.1:8787", "[::1]:8787"]
 */
export function resolveHttpOptions(options: HttpOptions, boundPort: number): ResolvedHttpOptions {
  const host = options.host ?? "127.0.0.1";
  const loopback = isLoopback(host);
  const allowedHosts =
    options.allowedHosts ??
    (loopback ? ["localhost", "127.0.0.1", "[::1]"].map((h) => `${h}:${boundPort}`) : undefined);
  const allowedOrigins =
    options.allowedOrigins ??
    (allowedHosts ? allowedHosts.flatMap((h) => [`http://${h}`, `https://${h}`]) : []);
  return {
    port: boundPort,
    host,
    path: options.path ?? "/mcp",
    healthPath: options.healthPath ?? "/healthz",
    readyPath: options.readyPath ?? "/readyz",
    ready: options.ready,
    stateless: options.stateless ?? false,
    allowedHosts: allowedHosts?.map((h) => h.toLowerCase()),
    allowedOrigins: allowedOrigins.map((o) => o.toLowerCase()),
    token: options.token,
    maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
    maxJsonDepth: options.maxJsonDepth ?? 100,
    maxSessions: options.maxSessions ?? 1000,
    maxSessionsPerClient: options.maxSessionsPerClient ?? 100,
    rateLimit: options.rateLimit,
    trustProxy: options.trustProxy ?? [],
    sessionIdleMs: options.sessionIdleMs ?? 30 * 60 * 1000,
  };
}

/** Options that cannot go together with `auth`, refused before anything listens. */
export function checkAuthOptions(options: HttpOptions): void {
  if (options.token !== undefined) {
    throw new Error(
      "mcp-gen: http.token (MCP_GEN_TOKEN) and http.auth exclude each other: the static token is for local use; with auth, clients send OAuth access tokens",
    );
  }
  if (!options.auth?.audience && !isLoopback(options.host ?? "127.0.0.1")) {
    throw new Error(
      `mcp-gen: http.auth needs its audience (--auth-audience <url>) when listening on ${options.host}: the URL clients reach the server at, e.g. https://mcp.example.com/mcp`,
    );
  }
}
