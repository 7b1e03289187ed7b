import { existsSync } from "node:fs";
import path from "node:path";
import type { ServerManifest } from "@mcp-gen/runtime/server";
import { diagnostic, McpGenError } from "@mcp-gen/schema/diagnostics";
import { loadConfig } from "../config/load.ts";
import { importModule } from "../load/import-module.ts";
import { manifestFromModule, type ServerModule } from "./manifest-module.ts";

export { manifestFromModule, type ServerModule };

/** Where a server's generated manifest is, and which config said so. */
export interface ServerLocation {
  /** `generated/<server>/server.ts`, absolute. */
  file: string;
  configFile: string;
  /** The file relative to the config's folder, for messages. */
  relative: string;
  /** The config's `state` URL, when it has one. */
  state?: string;
}

/**
 * Loads the generated manifest of a server (`generated/<server>/server.ts`). Tool classes are
 * instantiated by convention: the class's static `create()` (it may be async and read the
 * environment, e.g. a database path), else `new Class()` when the constructor takes no
 * arguments.
 *
 * @example
 * const { manifest } = await loadServerManifest({ server: "smart-home" });
 */
export async function loadServerManifest(options: {
  server: string;
  configFile?: string;
  cwd?: string;
}): Promise<{ manifest: ServerManifest; location: ServerLocation }> {
  const location = await locateServer(options);
  const module = (await importModule(location.file)) as ServerModule;
  return { manifest: await manifestFromModule(module, location.relative), location };
}

/** Finds the generated manifest of a server through the config; a clear error when there is none. */
export async function locateServer(options: {
  server: string;
  configFile?: string;
  cwd?: string;
}): Promise<ServerLocation> {
  const config = await loadConfig({
    ...(options.configFile ? { configFile: options.configFile } : {}),
    cwd: options.cwd ?? process.cwd(),
  });
  const file = path.join(config.generatedDir, options.server, "server.ts");
  const relative = path.relative(config.root, file).split(path.sep).join("/");
  if (!existsSync(file)) {
    const known =
      config.servers.some((s) => s.name === options.server) ||
      existsSync(path.join(config.schemasDir, `${options.server}.tools.json`));
    if (!known) {
      throw new McpGenError(
        diagnostic("MCPG002", `unknown server "${options.server}"`, {
          file: config.file,
          fix: `name a server of the config (${config.servers.map((s) => s.name).join(", ") || "none"})`,
        }),
      );
    }
    throw new McpGenError(
      diagnostic("MCPG070", `server "${options.server}" has no generated server manifest`, {
        file: relative,
      }),
    );
  }
  return { file, configFile: config.file, relative, ...(config.state ? { state: config.state } : {}) };
}
