import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Contract } from "@mcp-gen/schema";
import { type Diagnostic, diagnostic, McpGenError, normalizeContract } from "@mcp-gen/schema";
import type { Implementation, OAuthClientProvider, ProtocolEra } from "@modelcontextprotocol/client";
import { loadConfig } from "../config/load.ts";
import { readContract, serializeContract } from "../contract/read.ts";
import { type ContractChange, diffContracts } from "../diff/diff.ts";
import { emitServer } from "../emit/index.ts";
import { writeOutputs } from "../write/atomic.ts";
import { contractFromTools } from "./contract.ts";
import { listServerTools } from "./list-tools.ts";
import type { PullProtocol } from "./protocols.ts";
import { type PullSource, sourceFromRecord } from "./source.ts";

export type { PullProtocol } from "./protocols.ts";

export const DEFAULT_PULL_TIMEOUT_MS = 30_000;
const SERVER_NAME = /^[a-z0-9][a-z0-9_-]*$/i;

export interface PullOptions {
  /** Server name: the contract becomes `schemas/<name>.tools.json`. */
  name: string;
  /** Where the server is; default: the source the existing contract records. */
  source?: PullSource;
  /** HTTP headers for a recorded URL source (header values are never recorded). */
  headers?: Record<string, string>;
  /** OAuth for an HTTP server that requires it (never recorded), e.g. `oauthClientCredentials(…)`. */
  authProvider?: OAuthClientProvider;
  /** Time for starting, the handshake and listing the tools; default 30 s. */
  timeoutMs?: number;
  /**
   * The MCP protocol to speak: `auto` (default) tries 2026-07-28 and falls back to the 2025
   * protocol, `legacy` speaks the 2025 protocol only, `2026-07-28` that version only. The
   * contract is the same whichever is spoken.
   */
  protocol?: PullProtocol;
  /** Compare with the committed contract instead of writing. */
  check?: boolean;
  configFile?: string;
  cwd?: string;
}

export interface PullResult {
  /** The contract file, relative to the project root. */
  file: string;
  contract: Contract;
  serverInfo: Implementation | undefined;
  /** The protocol the pull spoke: `era` `modern` (2026-07-28 or later) or `legacy` (2025), and its version. */
  protocol: { era: ProtocolEra; version: string };
  /** Normalisation and emit warnings of the pulled contract. */
  warnings: Diagnostic[];
  /** `check` mode: `up-to-date` or `drifted`; otherwise `created`, `updated` or `unchanged`. */
  status: "created" | "updated" | "unchanged" | "up-to-date" | "drifted";
  /** What changed against the previous contract, classified (empty when there was none). */
  changes: ContractChange[];
  /** Whether a contract file was there before. */
  existed: boolean;
}

/**
 * `mcp-gen pull`: connects to a live MCP server, lists its tools and writes them as a
 * normalised contract `schemas/<name>.tools.json` (atomically; unchanged tools change no
 * byte). The next `mcp-gen build` emits its types, validators, typed client and provider
 * definitions. Nothing is written when the tools cannot be turned into artifacts.
 *
 * @example
 * const r = await pull({ name: "memory", source: { kind: "stdio", command: "npx", args: ["@modelcontextprotocol/server-memory"] } });
 */
export async function pull(options: PullOptions): Promise<PullResult> {
  const cwd = options.cwd ?? process.cwd();
  const config = await loadConfig({ ...(options.configFile ? { configFile: options.configFile } : {}), cwd });
  const name = options.name;
  if (!SERVER_NAME.test(name)) {
    throw new McpGenError(
      diagnostic("MCPG094", `server name "${name}" must use letters, digits, "-" and "_" only`),
    );
  }
  if (config.servers.some((s) => s.name === name)) {
    throw new McpGenError(
      diagnostic("MCPG094", `"${name}" is a server the config builds from TypeScript`, {
        file: config.displayFile,
        fix: "pull into another name, e.g. `mcp-gen pull <other-name> -- <command…>`",
      }),
    );
  }
  const absolute = path.join(config.schemasDir, `${name}.tools.json`);
  const file = path.relative(config.root, absolute).split(path.sep).join("/");
  const previousText = existsSync(absolute) ? readFileSync(absolute, "utf8") : undefined;
  const previous = previousText !== undefined ? readPrevious(absolute, file, options.check) : undefined;
  const recorded = sourceFromRecord(previous?.["x-mcp-gen"]?.pulledFrom, options.headers ?? {});
  const given = options.source ?? recorded;
  const source =
    given?.kind === "http" && options.authProvider ? { ...given, authProvider: options.authProvider } : given;
  if (!source) {
    throw new McpGenError(
      diagnostic(
        "MCPG094",
        previous
          ? `${file} does not record where it was pulled from, so pull needs a command or a URL`
          : `no command or URL to pull "${name}" from`,
      ),
    );
  }
  const listed = await listServerTools(source, {
    timeoutMs: options.timeoutMs ?? DEFAULT_PULL_TIMEOUT_MS,
    // A recorded command runs where the contract's project is; a typed one where it was typed.
    cwd: options.source ? cwd : config.root,
    ...(options.protocol ? { protocol: options.protocol } : {}),
  });
  const { contract, warnings } = contractFromTools({
    name,
    tools: listed.tools,
    resources: listed.resources,
    resourceTemplates: listed.resourceTemplates,
    prompts: listed.prompts,
    era: listed.era,
    source,
    file,
  });
  const emitted = emitServer(normalizeContract(contract, { file, mode: "emit" }).contract, {
    contractFile: file,
    outDir: path.relative(config.root, path.join(config.generatedDir, name)).split(path.sep).join("/"),
    targets: config.targets,
  });
  warnings.push(...emitted.warnings);
  const content = serializeContract(contract);
  const changes = previous ? diffContracts(previous, contract) : [];
  const base = {
    file,
    contract,
    serverInfo: listed.serverInfo,
    protocol: { era: listed.era, version: listed.protocolVersion },
    warnings,
    changes,
    existed: !!previous,
  };
  if (options.check) return { ...base, status: content === previousText ? "up-to-date" : "drifted" };
  if (content === previousText) return { ...base, status: "unchanged" };
  writeOutputs({ files: [{ path: file, content }], ownedDirs: [] }, config.root);
  return { ...base, status: previous ? "updated" : "created" };
}

/** The committed contract; when it is broken, `check` fails but a fresh pull replaces it. */
function readPrevious(absolute: string, file: string, check: boolean | undefined): Contract | undefined {
  try {
    return readContract(absolute, file);
  } catch (error) {
    if (check || !(error instanceof McpGenError)) throw error;
    return undefined;
  }
}
