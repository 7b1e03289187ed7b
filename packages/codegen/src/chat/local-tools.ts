import { existsSync } from "node:fs";
import path from "node:path";
import type { LocalToolsOptions } from "@mcp-gen/runtime/agent";
import { diagnostic, McpGenError } from "@mcp-gen/schema";
import { loadConfig } from "../config/load.ts";
import { readContract } from "../contract/read.ts";
import { importModule } from "../load/import-module.ts";
import { manifestFromModule, type ServerModule } from "../serve/load-manifest.ts";

/**
 * The in-process tools of `mcp-gen chat <server|contract>`: the generated manifest of a server of
 * the config (or of the server a contract file names), with its generated provider definitions
 * and `normalizeArguments` when they exist. Tool classes are built like `mcp-gen serve` builds
 * them: the class's static `create()`, else `new` without arguments.
 */
export async function loadLocalTools(options: {
  target: string;
  configFile?: string;
}): Promise<LocalToolsOptions> {
  const config = await loadConfig(options.configFile ? { configFile: options.configFile } : {});
  const server = options.target.endsWith(".json") ? readContract(options.target).server : options.target;
  const dir = path.join(config.generatedDir, server);
  const file = path.join(dir, "server.ts");
  if (!existsSync(file)) {
    const known = config.servers.some((s) => s.name === server);
    throw new McpGenError(
      diagnostic("MCPG082", `"${server}" has no generated server manifest to run in-process`, {
        file: path.relative(process.cwd(), file).split(path.sep).join("/"),
        fix: known
          ? "run `npx mcp-gen build` first"
          : `name a server of the config (${config.servers.map((s) => s.name).join(", ")}), or reach the server with --mcp ${server}=<command or url>`,
      }),
    );
  }
  const module = (await importModule(file)) as ServerModule;
  const manifest = await manifestFromModule(
    module,
    path.relative(config.root, file).split(path.sep).join("/"),
  );
  const providersFile = path.join(dir, "providers", "index.ts");
  const normalizeFile = path.join(dir, "normalize.ts");
  const providers = existsSync(providersFile)
    ? ((await importModule(providersFile)) as { providerTools: LocalToolsOptions["providers"] }).providerTools
    : undefined;
  const normalize = existsSync(normalizeFile)
    ? (
        (await importModule(normalizeFile)) as {
          normalizeArguments: LocalToolsOptions["normalize"];
        }
      ).normalizeArguments
    : undefined;
  return { manifest, ...(providers ? { providers } : {}), ...(normalize ? { normalize } : {}) };
}
