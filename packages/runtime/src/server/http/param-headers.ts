import type { IncomingHttpHeaders } from "node:http";
import { type McpHeader, scanMcpHeaders } from "@mcp-gen/schema/headers";
import type { ServerManifest } from "../manifest.ts";

/** The `x-mcp-header` declarations of each tool that has any, by tool name. */
export function headersByTool(manifest: ServerManifest): Map<string, McpHeader[]> {
  const out = new Map<string, McpHeader[]>();
  for (const tool of manifest.tools) {
    const { headers } = scanMcpHeaders(tool.definition.inputSchema);
    if (headers.length > 0) out.set(tool.definition.name, headers);
  }
  return out;
}

const BASE64 = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/**
 * Why the `Mcp-Param-*` headers of a 2026-07-28 `tools/call` disagree with its arguments, if
 * they do (the server must then refuse with HTTP 400 and `-32020`): a gateway may have routed on
 * the header while the tool would act on the body. A header is expected for every declared
 * argument present and not `null`; its value is taken literally unless wrapped as
 * `=?base64?…?=`, trimmed of surrounding whitespace, and integers compare as numbers.
 */
export function paramHeaderMismatch(
  declared: readonly McpHeader[],
  args: unknown,
  headers: IncomingHttpHeaders,
): string | undefined {
  for (const header of declared) {
    let value: unknown = args;
    for (const key of header.path) {
      value =
        value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
    }
    if (value === undefined || value === null) continue;
    const field = `Mcp-Param-${header.name}`;
    const raw = headers[field.toLowerCase()];
    if (raw === undefined)
      return `header ${field} is missing, but the argument "${header.path.join(".")}" is in the body`;
    const sent = decode(String(Array.isArray(raw) ? raw.join(",") : raw).trim());
    if (sent === undefined) return `header ${field} is not valid =?base64?…?= encoding`;
    const agrees =
      header.type === "integer"
        ? sent.trim() !== "" && Number(sent) === value
        : header.type === "boolean"
          ? sent === String(value)
          : sent === value;
    if (!agrees) return `header ${field} does not match the argument "${header.path.join(".")}" in the body`;
  }
  return undefined;
}

/**
 * A header value as sent: literal, or the UTF-8 text of a `=?base64?…?=` wrapper (`undefined` if
 * malformed). Only a value with both the prefix and the closing `?=` is a wrapper.
 */
function decode(value: string): string | undefined {
  if (!value.startsWith("=?base64?") || !value.endsWith("?=") || value.length < 11) return value;
  const match = BASE64.exec(value);
  if (!match || match[1]!.length % 4 !== 0) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(match[1]!, "base64"));
  } catch {
    return undefined;
  }
}
