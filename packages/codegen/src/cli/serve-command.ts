import path from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import { type AuthFlags, authFromFlags } from "../serve/auth-flags.ts";
import { withConfig } from "./options.ts";
import { run } from "./report.ts";

interface ServeFlags extends AuthFlags {
  config?: string;
  http?: boolean;
  port: number;
  host: string;
  stateless?: boolean;
  timeout?: number;
  maskErrors?: boolean;
  listTtl?: number;
  drainTimeout: number;
  maxSessions?: number;
  maxSessionsPerClient?: number;
  rateLimit?: number;
  trustProxy?: string[];
  listCachePublic?: boolean;
  allowedHost?: string[];
  allowedOrigin?: string[];
  sessionRoute?: string;
  logFormat: string;
  logArguments?: boolean;
  state?: string;
  code?: boolean;
  codeOnly?: boolean;
  codeAllowDestructive?: boolean;
  mcp?: string[];
}

/**
 * `mcp-gen serve <server>`: serves the generated manifest of a server over stdio (what Claude
 * Desktop, Cursor and the MCP Inspector launch) or Streamable HTTP. Bearer auth reads the
 * token from `MCP_GEN_TOKEN`, so it never shows in process listings (a fixed secret: for local
 * use). Servers others reach use OAuth (`--auth-issuer` …): access tokens checked on every request.
 */
export function registerServe(program: Command): void {
  withConfig(program.command("serve"))
    .argument("<server>", "server name from the config")
    .description("serve a server's tools over stdio (default) or Streamable HTTP (--http)")
    .option("--http", "serve Streamable HTTP at http://<host>:<port>/mcp instead of stdio")
    .option("-p, --port <port>", "HTTP port (0: any free port)", whole, 3000)
    .option("--host <host>", "HTTP interface to bind", "127.0.0.1")
    .option(
      "--stateless",
      "HTTP without sessions for 2025-era clients too (2026-07-28 requests never have one), for replicas behind a load balancer",
    )
    .option(
      "--state <url>",
      "keep tasks and events where every replica sees them: redis://… or postgres://… (default: MCP_GEN_STATE_URL, then the config's state, else this process's memory; MCP_GEN_STATE_KEY seals input_required retries for any replica)",
    )
    .option("--timeout <ms>", "time limit of every tool call, in milliseconds", whole)
    .option(
      "--log-format <format>",
      "text (errors only) or json (also one line per tool call, resource read and prompt, on stderr)",
      logFormat,
      "text",
    )
    .option(
      "--log-arguments",
      "with --log-format json: put the calls' arguments in the log (may hold personal data)",
    )
    .option("--mask-errors", "send a generic message instead of the text of unexpected errors")
    .option(
      "--max-sessions <n>",
      "most 2025-era HTTP sessions (the least recently used idle one makes room)",
      whole,
    )
    .option("--max-sessions-per-client <n>", "most 2025-era HTTP sessions of one client address", whole)
    .option(
      "--rate-limit <n>",
      "HTTP requests per minute of one client address; beyond: 429 with Retry-After",
      whole,
    )
    .option(
      "--trust-proxy <address...>",
      "addresses of reverse proxies in front: requests from them count as from the X-Forwarded-For client",
    )
    .option(
      "--drain-timeout <ms>",
      "on SIGTERM, how long calls being answered may take to finish (HTTP)",
      whole,
      30_000,
    )
    .option(
      "--list-ttl <ms>",
      "how long 2026-07-28 clients may cache the tool, resource, template and prompt lists (ttlMs; default 0)",
      whole,
    )
    .option("--list-cache-public", "let shared caches keep those lists (cacheScope public; default private)")
    .option(
      "--session-route <name>",
      "replicas behind a load balancer: start 2025-era session ids with <name>. so the balancer pins them (see examples/ledger/deploy/nginx.conf)",
      sessionRoute,
    )
    .option("--allowed-host <host...>", "accepted Host headers (default on loopback: localhost:<port> …)")
    .option("--allowed-origin <origin...>", "accepted Origin headers (default: http(s):// + allowed hosts)")
    .option(
      "--code",
      "also serve run_program: a type-checked program against every tool, run in a sandbox (code mode)",
    )
    .option("--code-only", "serve run_program alone, instead of the tools")
    .option(
      "--code-allow-destructive",
      "run destructive calls inside programs when the client cannot ask the user (no elicitation)",
    )
    .option(
      "--mcp <name=command|url...>",
      "with --code: programs can also call this MCP server (a command over stdio, or an http(s) URL)",
    )
    .option("--auth-issuer <url>", "require OAuth access tokens from this authorization server (HTTP)")
    .option(
      "--auth-audience <url>",
      "this server's canonical URI, the tokens' audience (default: its own URL)",
    )
    .option("--auth-jwks <url>", "the authorization server's JWKS (default: jwks_uri of its metadata)")
    .option(
      "--auth-introspection <url>",
      "check opaque tokens at this introspection endpoint (RFC 7662); credentials in MCP_GEN_AUTH_CLIENT_ID/_SECRET",
    )
    .option(
      "--auth-scopes-on-list <mode>",
      "tools/list shows callers only what they may call (filter) or all",
    )
    .option(
      "--auth-scope <scope...>",
      "scopes every request needs (named in 401 challenges, so clients ask for them first)",
    )
    .action((server: string, flags: ServeFlags) =>
      run(async () => {
        // The runtime (and the MCP SDK under it) loads before the user's TypeScript: on a Node
        // without type stripping, tsx's loader hooks, once registered, slow every later import.
        const { jsonCallLog, serve } = await import("@mcp-gen/runtime/server");
        const { loadServerManifest } = await import("../serve/load-manifest.ts");
        const loaded = await loadServerManifest({
          server,
          ...(flags.config ? { configFile: flags.config } : {}),
        });
        const code = flags.code || flags.codeOnly;
        if (!code && (flags.mcp || flags.codeAllowDestructive)) {
          process.stderr.write("mcp-gen: --mcp and --code-allow-destructive need --code or --code-only\n");
          return 1;
        }
        const coded = code
          ? await (await import("../serve/code-option.ts")).withCodeServe({
              manifest: loaded.manifest,
              only: flags.codeOnly === true,
              allowDestructive: flags.codeAllowDestructive === true,
              mcp: flags.mcp ?? [],
              report: (line) => process.stderr.write(`${line}\n`),
            })
          : undefined;
        const manifest = coded?.manifest ?? loaded.manifest;
        if (flags.sessionRoute && !flags.http) {
          process.stderr.write("mcp-gen: --session-route needs --http (stdio has no sessions to route)\n");
          return 1;
        }
        if (flags.logArguments && flags.logFormat !== "json") {
          process.stderr.write("mcp-gen: --log-arguments needs --log-format json\n");
          return 1;
        }
        // Shared state opens before serving: an engine that cannot be reached stops the start.
        // --state, then MCP_GEN_STATE_URL, then the config's `state`.
        const given = flags.state ?? (process.env.MCP_GEN_STATE_URL || undefined);
        const stateUrl = given ?? loaded.location.state;
        const stateFrom = given
          ? "--state"
          : `state (${path.relative(process.cwd(), loaded.location.configFile)})`;
        let state: import("@mcp-gen/runtime/state").SharedState | undefined;
        if (stateUrl) {
          const { openState } = await import("@mcp-gen/runtime/state");
          try {
            state = await openState(stateUrl);
          } catch (error) {
            process.stderr.write(`mcp-gen: ${stateFrom}: ${(error as Error).message}\n`);
            return 1;
          }
        }
        const common = {
          ...(state ? { state } : {}),
          ...(flags.logFormat === "json" ? { onCall: jsonCallLog() } : {}),
          ...(flags.logArguments ? { logArguments: true } : {}),
          ...(flags.timeout !== undefined ? { timeoutMs: flags.timeout } : {}),
          ...(flags.maskErrors ? { maskErrors: true } : {}),
          ...(flags.listTtl !== undefined || flags.listCachePublic
            ? {
                listCache: {
                  ttlMs: flags.listTtl ?? 0,
                  scope: flags.listCachePublic ? ("public" as const) : ("private" as const),
                },
              }
            : {}),
        };
        const token = process.env.MCP_GEN_TOKEN || undefined;
        const auth = authFromFlags(flags, process.env);
        if (!auth.ok) {
          process.stderr.write(`mcp-gen: ${auth.message}\n`);
          return 1;
        }
        const running = flags.http
          ? await serve(manifest, {
              ...common,
              transport: "http",
              http: {
                port: flags.port,
                host: flags.host,
                stateless: flags.stateless ?? false,
                ...(flags.allowedHost ? { allowedHosts: flags.allowedHost } : {}),
                ...(flags.maxSessions !== undefined ? { maxSessions: flags.maxSessions } : {}),
                ...(flags.maxSessionsPerClient !== undefined
                  ? { maxSessionsPerClient: flags.maxSessionsPerClient }
                  : {}),
                ...(flags.rateLimit ? { rateLimit: { requests: flags.rateLimit, perMs: 60_000 } } : {}),
                ...(flags.trustProxy ? { trustProxy: flags.trustProxy } : {}),
                ...(flags.allowedOrigin ? { allowedOrigins: flags.allowedOrigin } : {}),
                ...(flags.sessionRoute ? { sessionRoute: flags.sessionRoute } : {}),
                ...(token ? { token } : {}),
                ...(auth.auth ? { auth: auth.auth } : {}),
              },
            })
          : await serve(manifest, common);
        const where = running.url ?? "stdio";
        process.stderr.write(
          `mcp-gen: serving ${manifest.server} (${manifest.tools.length} tools) on ${where}\n`,
        );
        // SIGTERM (orchestrators, load balancers): finish the calls being answered, then exit 0, or
        // 1 when the drain timeout cut calls off (their clients got no answer and should retry).
        let drained: Promise<number> | undefined;
        process
          .once("SIGINT", () => void running.close())
          .once("SIGTERM", () => {
            drained = running.drain(flags.drainTimeout).then(({ cutOff }) => {
              if (cutOff === 0) return 0;
              process.stderr.write(
                `mcp-gen: the drain timeout (${flags.drainTimeout} ms) cut off ${cutOff} call${cutOff === 1 ? "" : "s"}\n`,
              );
              return 1;
            });
          });
        await running.closed;
        await coded?.close();
        await state?.close();
        // `closed` resolves while `drain` is still closing: its verdict decides the exit code.
        const exitCode = (await drained) ?? 0;
        return exitCode;
      }),
    );
}

function sessionRoute(text: string): string {
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(text))
    throw new InvalidArgumentError('use 1 to 32 letters, digits, "-" or "_", e.g. replica-1');
  return text;
}

function logFormat(text: string): string {
  if (text !== "text" && text !== "json") throw new InvalidArgumentError('use "text" or "json"');
  return text;
}

function whole(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value))
    throw new InvalidArgumentError("not a whole number");
  return value;
}
