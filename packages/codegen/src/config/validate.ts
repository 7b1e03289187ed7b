import { type Diagnostic, diagnostic, McpGenError } from "@mcp-gen/schema/diagnostics";
import { IMPORT_EXTENSIONS } from "../emit/imports.ts";
import { type McpGenConfig, PROVIDER_TARGETS } from "./define.ts";

const TOP_KEYS = [
  "schemas",
  "generated",
  "tsconfig",
  "importExtension",
  "naming",
  "targets",
  "servers",
  "state",
];
/** The URL schemes of `state` (as `--state`). */
const STATE_URL = /^(redis|rediss|postgres|postgresql):\/\/.+|^memory:/;
const TARGETS: readonly string[] = PROVIDER_TARGETS;
const SERVER_KEYS = ["tools", "naming", "title", "version", "icons"];
const NAMINGS = ["preserve", "snake_case"];
const SERVER_NAME = /^[a-z0-9][a-z0-9_-]*$/i;

/** Checks the shape of a loaded config; every problem is reported with its JSON pointer. */
export function validateConfig(raw: unknown, file: string): McpGenConfig {
  const problems: Diagnostic[] = [];
  const bad = (pointer: string, message: string) =>
    problems.push(diagnostic("MCPG002", message, { file, pointer }));
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
    throw new McpGenError(
      diagnostic("MCPG002", "the config must export an object (export default defineConfig({...}))", {
        file,
        pointer: "",
      }),
    );
  }
  const config = raw as Record<string, unknown>;
  for (const key of Object.keys(config)) {
    if (!TOP_KEYS.includes(key))
      bad(`/${key}`, `unknown config key "${key}" (known: ${TOP_KEYS.join(", ")})`);
  }
  for (const key of ["schemas", "generated", "tsconfig"]) {
    if (config[key] !== undefined && (typeof config[key] !== "string" || config[key] === "")) {
      bad(`/${key}`, `"${key}" must be a non-empty path string`);
    }
  }
  if (config.state !== undefined && (typeof config.state !== "string" || !STATE_URL.test(config.state))) {
    bad(
      "/state",
      `"state" must be a URL as --state takes it: "redis://host:6379", "postgres://user@host/db" or "memory:", not ${JSON.stringify(config.state)}`,
    );
  }
  const extension = config.importExtension;
  if (extension !== undefined && !(IMPORT_EXTENSIONS as readonly unknown[]).includes(extension)) {
    bad(
      "/importExtension",
      `"importExtension" must be ".js", ".ts" or "" (no extension), not ${JSON.stringify(extension)}`,
    );
  }
  if (config.naming !== undefined && !NAMINGS.includes(config.naming as string)) {
    bad("/naming", `"naming" must be one of ${NAMINGS.join(", ")}`);
  }
  if (config.targets !== undefined) {
    const targets = config.targets;
    if (!Array.isArray(targets)) bad("/targets", `"targets" must be an array of ${TARGETS.join(", ")}`);
    else
      targets.forEach((t, i) => {
        if (!TARGETS.includes(t as string))
          bad(`/targets/${i}`, `unknown target ${JSON.stringify(t)} (known: ${TARGETS.join(", ")})`);
        else if (targets.indexOf(t) !== i) bad(`/targets/${i}`, `target "${String(t)}" is listed twice`);
      });
  }
  const servers = config.servers;
  if (servers !== undefined) {
    if (servers === null || typeof servers !== "object" || Array.isArray(servers)) {
      bad("/servers", `"servers" must be an object mapping server names to { tools: [...] }`);
    } else {
      for (const [name, server] of Object.entries(servers)) {
        const at = `/servers/${name}`;
        if (!SERVER_NAME.test(name))
          bad(at, `server name "${name}" must use letters, digits, "-" and "_" only`);
        if (server === null || typeof server !== "object" || Array.isArray(server)) {
          bad(at, `server "${name}" must be an object like { tools: ["src/tools.ts"] }`);
          continue;
        }
        const s = server as Record<string, unknown>;
        for (const key of Object.keys(s)) {
          if (!SERVER_KEYS.includes(key))
            bad(`${at}/${key}`, `unknown server key "${key}" (known: ${SERVER_KEYS.join(", ")})`);
        }
        if (
          !Array.isArray(s.tools) ||
          s.tools.length === 0 ||
          s.tools.some((t) => typeof t !== "string" || t === "")
        ) {
          bad(`${at}/tools`, `server "${name}" needs "tools": a non-empty array of paths or globs`);
        }
        if (s.naming !== undefined && !NAMINGS.includes(s.naming as string)) {
          bad(`${at}/naming`, `"naming" must be one of ${NAMINGS.join(", ")}`);
        }
        for (const key of ["title", "version"]) {
          if (s[key] !== undefined && (typeof s[key] !== "string" || s[key] === ""))
            bad(`${at}/${key}`, `"${key}" must be a non-empty string`);
        }
        if (s.icons !== undefined) checkIcons(s.icons, `${at}/icons`, bad);
      }
    }
  }
  if (problems.length > 0) throw new McpGenError(problems);
  return config as McpGenConfig;
}

/** `icons`: `[{ src, mimeType?, sizes?: string[], theme?: "light" | "dark" }]`, as MCP 2025-11-25 has them. */
function checkIcons(icons: unknown, at: string, bad: (pointer: string, message: string) => void): void {
  if (!Array.isArray(icons)) {
    bad(at, `"icons" must be an array like [{ src: "https://example.com/icon.png", mimeType: "image/png" }]`);
    return;
  }
  icons.forEach((icon, i) => {
    const where = `${at}/${i}`;
    if (icon === null || typeof icon !== "object" || Array.isArray(icon)) {
      bad(where, `an icon must be an object like { src: "https://example.com/icon.png" }`);
      return;
    }
    const { src, mimeType, sizes, theme, ...rest } = icon as Record<string, unknown>;
    if (typeof src !== "string" || src === "")
      bad(`${where}/src`, `"src" must be the icon's URL (a non-empty string)`);
    if (mimeType !== undefined && typeof mimeType !== "string")
      bad(`${where}/mimeType`, `"mimeType" must be a string`);
    if (sizes !== undefined && (!Array.isArray(sizes) || sizes.some((x) => typeof x !== "string")))
      bad(`${where}/sizes`, `"sizes" must be an array of strings like ["48x48", "any"]`);
    if (theme !== undefined && theme !== "light" && theme !== "dark")
      bad(`${where}/theme`, `"theme" must be "light" or "dark"`);
    for (const key of Object.keys(rest))
      bad(`${where}/${key}`, `unknown icon key "${key}" (known: src, mimeType, sizes, theme)`);
  });
}
