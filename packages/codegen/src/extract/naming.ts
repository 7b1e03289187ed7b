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

/** The strictest tool-name rule shared by MCP clients and LLM providers. */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
