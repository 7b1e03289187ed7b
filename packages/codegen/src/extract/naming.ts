import type { NamingStyle } from "../config/define.ts";

/** `searchDevices` → `search_devices`, `getHTTPStatus` → `get_http_status`. */
export function toSnakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[-\s]+/g, "_")
    .toLowerCase();
}

export function applyNaming(name: string, style: NamingStyle): string {
  return style === "snake_case" ? toSnakeCase(name) : name;
}

/**
 * MCP's tool-name rule (SEP-986, spec 2025-11-25): 1–128 letters, digits, `_`, `-` and `.`.
 * Provider definitions rename a tool a provider rejects (longer than 64, or with a `.`) and say
 * so (MCPG111); the agent maps the name back.
 */
export const TOOL_NAME = /^[A-Za-z0-9._-]{1,128}$/;
