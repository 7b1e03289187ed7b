import type { IrServer } from "./types.ts";

/** Serialises the IR of one or more servers for `mcp-gen build --dump-ir`. */
export function dumpIr(servers: readonly IrServer[]): string {
  return `${JSON.stringify({ servers }, null, 2)}\n`;
}
