import type { Header, Int } from "@mcp-gen/runtime";

/**
 * A number cannot travel in a header: it could lose its exact value.
 * @param amount How much
 */
export function pay(amount: number & Header<"Amount">): string {
  return String(amount);
}

/**
 * The name must be an HTTP header name.
 * @param region Where
 */
export function locate(region: string & Header<"the region">): string {
  return region;
}

/**
 * A nullable header argument cannot be mirrored faithfully.
 * @param shard Which shard
 */
export function shard(shard: (Int & Header<"Shard">) | null): string {
  return String(shard);
}
