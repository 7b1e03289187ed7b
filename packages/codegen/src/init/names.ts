import path from "node:path";
import { McpGenError } from "@mcp-gen/schema";
import { validateConfig } from "../config/validate.ts";
import { initError } from "./error.ts";

/** The server name used when nothing usable is left of the package or folder name. */
export const FALLBACK_NAME = "mcp-server";

/**
 * Turns a package or folder name into a server name the config accepts (letters, digits, `-`
 * and `_`, starting with a letter or digit): the npm scope is dropped, letters are lower-cased and
 * every other run of characters becomes one `-`.
 *
 * @example
 * toServerName("@acme/Weather Tools"); // "weather-tools"
 */
export function toServerName(raw: string): string {
  const unscoped = raw.startsWith("@") && raw.includes("/") ? raw.slice(raw.indexOf("/") + 1) : raw;
  const name = unscoped
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^[-_]+/, "")
    .replace(/-+$/, "");
  return name === "" ? FALLBACK_NAME : name;
}

/**
 * The server name of the project in `dir`: `explicit` (`--name`) when given, checked against the
 * config's rule, else derived from package.json's `name`, else from the folder's name.
 *
 * @example
 * chooseServerName({ dir: "/work/calc", packageName: "@acme/calc" }); // "calc"
 */
export function chooseServerName(options: { dir: string; explicit?: string; packageName?: unknown }): string {
  if (options.explicit !== undefined) {
    checkServerName(options.explicit);
    return options.explicit;
  }
  const source =
    typeof options.packageName === "string" && options.packageName !== ""
      ? options.packageName
      : path.basename(options.dir);
  return toServerName(source);
}

/** Throws an MCPG096 `McpGenError` unless the config accepts `name` as a server name. */
export function checkServerName(name: string): void {
  try {
    // The config's own validation decides, so init never writes a config that `build` rejects.
    validateConfig({ servers: { [name]: { tools: ["src/tools.ts"] } } }, "mcp-gen.config.ts");
  } catch (error) {
    if (!(error instanceof McpGenError)) throw error;
    throw initError({
      message: `--name ${JSON.stringify(name)} is not a valid server name: use letters, digits, "-" and "_", starting with a letter or digit`,
      fix: `pass a name such as --name ${toServerName(name)}`,
    });
  }
}
