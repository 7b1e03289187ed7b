import { PROVIDER_TARGETS, type ProviderTarget } from "@mcp-gen/schema/targets";
import type { ImportExtension } from "../emit/imports.ts";

export { type ImportExtension, PROVIDER_TARGETS, type ProviderTarget };

/** How tool names are derived from function names when no JSDoc `@name` is given. */
export type NamingStyle = "preserve" | "snake_case";

export interface ServerConfig {
  /** Tool modules: paths or globs, relative to the config file. */
  tools: string[];
  /** Overrides the top-level `naming` for this server. */
  naming?: NamingStyle;
  /** Human-readable name of the server (`serverInfo.title`, MCP 2025-11-25). */
  title?: string;
  /** Version the server reports (`serverInfo.version`). Default `"0.0.0"`. */
  version?: string;
  /** Icons of the server (`serverInfo.icons`, MCP 2025-11-25). */
  icons?: { src: string; mimeType?: string; sizes?: string[]; theme?: "light" | "dark" }[];
}

export interface McpGenConfig {
  /** Folder of the contracts, relative to the config file. Default `"schemas"`. */
  schemas?: string;
  /** Folder of the emitted artifacts, relative to the config file. Default `"generated"`. */
  generated?: string;
  /** tsconfig used to type-check tool modules. Default: `tsconfig.json` next to the config, if any. */
  tsconfig?: string;
  /**
   * Extension of the relative imports in generated TypeScript (`./index.js`, `../../src/tools.js`).
   * Default: `".ts"` when the tsconfig sets `allowImportingTsExtensions` or
   * `rewriteRelativeImportExtensions`, else `".js"` (what NodeNext needs when `tsc` emits);
   * `""` leaves the extension out (bundlers).
   */
  importExtension?: ImportExtension;
  /** Tool naming. Default `"preserve"` (the function name as written). */
  naming?: NamingStyle;
  /**
   * Providers to emit tool definitions for, in `generated/<server>/providers/`; `build` and `lint`
   * check every tool against these providers' rules. Default: all (`["anthropic", "openai", "gemini"]`).
   */
  targets?: ProviderTarget[];
  /** Servers built from TypeScript tool modules, by name. */
  servers?: Record<string, ServerConfig>;
  /**
   * Where `mcp-gen serve` keeps what its replicas share (tasks, events, continuations):
   * `"redis://…"`, `"postgres://…"` or `"memory:"`, as `--state`. `--state` and
   * `MCP_GEN_STATE_URL` win over it; keep passwords in the environment, not here.
   * Default: none (this process's memory).
   */
  state?: string;
}

/**
 * Declares an mcp-gen configuration with type checking in editors.
 *
 * @example
 * // mcp-gen.config.ts
 * import { defineConfig } from "@mcp-gen/codegen/config";
 * export default defineConfig({
 *   servers: { "smart-home": { tools: ["examples/smart-home/tools.ts"] } },
 * });
 */
export function defineConfig(config: McpGenConfig): McpGenConfig {
  return config;
}
