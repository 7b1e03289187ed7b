import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Contract } from "@mcp-gen/schema/contract";
import { diagnostic, McpGenError } from "@mcp-gen/schema/diagnostics";
import { importModule } from "../load/import-module.ts";
import {
  type ImportExtension,
  type McpGenConfig,
  type NamingStyle,
  PROVIDER_TARGETS,
  type ProviderTarget,
} from "./define.ts";
import { validateConfig } from "./validate.ts";

export const CONFIG_NAMES = [
  "mcp-gen.config.ts",
  "mcp-gen.config.mts",
  "mcp-gen.config.mjs",
  "mcp-gen.config.js",
  "mcp-gen.config.json",
];

/** What the contract records of `serverInfo` besides the name. */
export type ServerInfoFields = Pick<Contract, "title" | "version" | "icons">;

export interface ResolvedServerConfig {
  name: string;
  /** Patterns as written in the config. */
  tools: string[];
  naming: NamingStyle;
  /** `serverInfo` fields of the config (title, version, icons), copied into the contract. */
  info?: ServerInfoFields;
}

/** A loaded config with every path made absolute. */
export interface ResolvedConfig {
  /** The config file. */
  file: string;
  /** The config file as messages name it (relative to the working directory). */
  displayFile: string;
  /** Folder of the config file; every relative path in it is resolved from here. */
  root: string;
  schemasDir: string;
  generatedDir: string;
  tsconfig: string | undefined;
  /** `importExtension` of the config; absent: the build derives it from the tsconfig (`importExtensionOf`). */
  importExtension?: ImportExtension;
  /** Providers to emit and check tool definitions for (default: all). */
  targets: ProviderTarget[];
  servers: ResolvedServerConfig[];
  /** `state` of the config: the shared state URL `mcp-gen serve` uses without `--state`. */
  state?: string;
}

/** Finds the nearest `mcp-gen.config.*` in `cwd` or a folder above it. */
export function findConfig(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    for (const name of CONFIG_NAMES) {
      const candidate = path.join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Loads and validates a config: the given file, or the nearest one upwards from `cwd`.
 *
 * @example
 * const config = await loadConfig({ cwd: process.cwd() });
 */
export async function loadConfig(
  options: { configFile?: string; cwd?: string } = {},
): Promise<ResolvedConfig> {
  const cwd = options.cwd ?? process.cwd();
  const file = options.configFile ? path.resolve(cwd, options.configFile) : findConfig(cwd);
  if (!file) {
    throw new McpGenError(
      diagnostic("MCPG001", `no mcp-gen.config.{ts,mjs,js,json} found in ${cwd} or any folder above it`),
    );
  }
  if (!existsSync(file)) throw new McpGenError(diagnostic("MCPG001", `config file ${file} does not exist`));
  const display = path.relative(cwd, file) || file;
  const raw = await importConfig(file, display);
  const config = validateConfig(raw, display);
  const root = path.dirname(file);
  const tsconfigDefault = path.join(root, "tsconfig.json");
  return {
    file,
    displayFile: display,
    root,
    schemasDir: path.resolve(root, config.schemas ?? "schemas"),
    generatedDir: path.resolve(root, config.generated ?? "generated"),
    tsconfig: config.tsconfig
      ? path.resolve(root, config.tsconfig)
      : existsSync(tsconfigDefault)
        ? tsconfigDefault
        : undefined,
    ...(config.importExtension !== undefined ? { importExtension: config.importExtension } : {}),
    targets: config.targets ?? [...PROVIDER_TARGETS],
    ...(config.state !== undefined ? { state: config.state } : {}),
    servers: Object.entries(config.servers ?? {})
      .map(([name, server]) => ({
        name,
        tools: server.tools,
        naming: server.naming ?? config.naming ?? "preserve",
        ...(server.title !== undefined || server.version !== undefined || server.icons !== undefined
          ? {
              info: {
                ...(server.title !== undefined ? { title: server.title } : {}),
                ...(server.version !== undefined ? { version: server.version } : {}),
                ...(server.icons !== undefined
                  ? {
                      icons: server.icons.map(({ src, mimeType, sizes, theme }) => ({
                        src,
                        ...(mimeType !== undefined ? { mimeType } : {}),
                        ...(sizes !== undefined ? { sizes: [...sizes] } : {}),
                        ...(theme !== undefined ? { theme } : {}),
                      })),
                    }
                  : {}),
              },
            }
          : {}),
      }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}

/** A config module's default export (a TS config outside an ESM package arrives CommonJS-wrapped). */
function defaultExport(mod: { default?: unknown }): unknown {
  const value = mod.default;
  if (
    value &&
    typeof value === "object" &&
    "default" in value &&
    (value as { __esModule?: boolean }).__esModule
  ) {
    return (value as { default: unknown }).default;
  }
  return value;
}

async function importConfig(file: string, display: string): Promise<unknown> {
  try {
    if (file.endsWith(".json")) return JSON.parse(readFileSync(file, "utf8"));
    return defaultExport(await importModule(file));
  } catch (error) {
    throw new McpGenError(
      diagnostic("MCPG002", `cannot load config: ${(error as Error).message}`, {
        file: display,
        fix: "make the config file valid and give it a default export (or a JSON object)",
      }),
    );
  }
}

export type { McpGenConfig };
