import type { AuthInfo } from "@modelcontextprotocol/server";
import type { ManifestTool } from "./manifest.ts";
import { missingScopes } from "./principal.ts";

/**
 * A `tools/list` result with only the tools the caller's token has the scopes for. Without
 * authentication (`info` undefined) the listing as it is. A filtered listing depends on the
 * caller, so no shared cache may keep it (`cacheScope: "private"`).
 */
export function scopedListing(
  listing: object,
  tools: ReadonlyMap<string, ManifestTool>,
  info: AuthInfo | undefined,
): object {
  if (!info) return listing;
  const { tools: listed, ...rest } = listing as { tools: { name: string }[]; cacheScope?: string };
  const visible = listed.filter((t) => missingScopes(tools.get(t.name)?.scopes, info).length === 0);
  return { ...rest, tools: visible, ...(rest.cacheScope ? { cacheScope: "private" } : {}) };
}
