import type { Contract } from "@mcp-gen/schema";
import type { SchemaChange } from "./compare-schema.ts";

/**
 * OAuth scopes a tool needs (`@scope`, `x-mcp-gen` extras): a new one is breaking (callers whose
 * tokens lack it are now refused with 403), a scope no longer needed is not.
 */
export function diffScopes(tool: string, contracts: { old: Contract; next: Contract }): SchemaChange[] {
  const scopesOf = (c: Contract) => c["x-mcp-gen"]?.tools[tool]?.scopes ?? [];
  const before = scopesOf(contracts.old);
  const after = scopesOf(contracts.next);
  const pointer = `/x-mcp-gen/tools/${tool.replaceAll("~", "~0").replaceAll("/", "~1")}/scopes`;
  return [
    ...after
      .filter((s) => !before.includes(s))
      .map((s) => ({
        breaking: true,
        pointer,
        message: `now needs scope "${s}": callers whose tokens lack it are refused (403)`,
      })),
    ...before
      .filter((s) => !after.includes(s))
      .map((s) => ({ breaking: false, pointer, message: `no longer needs scope "${s}"` })),
  ];
}
