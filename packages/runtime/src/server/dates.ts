import { parsePointer } from "../validation/pointer.ts";

/**
 * Turns the ISO strings at `paths` of validated arguments back into `Date`s, for tools whose
 * parameters are typed `Date`. Paths are JSON pointers with `*` for any array item or map
 * value (the generated manifest lists them). The arguments are copied along those paths, not
 * changed in place.
 *
 * @example
 * reviveDates({ at: "2026-11-21T10:00:00Z" }, ["/at"]); // { at: Date }
 */
export function reviveDates<T>(args: T, paths: readonly string[]): T {
  return reviveAt(args, paths, (text) => new Date(text));
}

/**
 * Turns the URI strings at `paths` of validated arguments into `URL`s, for tools whose parameters
 * are typed `URL` (paths as for `reviveDates`; the arguments are copied, not changed in place).
 *
 * @example
 * reviveUrls({ site: "https://example.com/" }, ["/site"]); // { site: URL }
 */
export function reviveUrls<T>(args: T, paths: readonly string[]): T {
  return reviveAt(args, paths, (text) => new URL(text));
}

function reviveAt<T>(args: T, paths: readonly string[], make: (text: string) => unknown): T {
  let result: unknown = args;
  for (const path of paths) result = revive(result, parsePointer(path), make);
  return result as T;
}

function revive(value: unknown, tokens: readonly string[], make: (text: string) => unknown): unknown {
  if (tokens.length === 0) return typeof value === "string" ? make(value) : value;
  if (value === null || typeof value !== "object") return value;
  const [token, ...rest] = tokens as [string, ...string[]];
  if (Array.isArray(value)) {
    if (token === "*") return value.map((item) => revive(item, rest, make));
    const index = Number(token);
    if (!Number.isInteger(index) || index >= value.length) return value;
    const copy = [...value];
    copy[index] = revive(copy[index], rest, make);
    return copy;
  }
  const record = value as Record<string, unknown>;
  const keys = token === "*" ? Object.keys(record) : Object.hasOwn(record, token) ? [token] : [];
  if (keys.length === 0) return value;
  const copy: Record<string, unknown> = { ...record };
  for (const key of keys) copy[key] = revive(record[key], rest, make);
  return copy;
}
