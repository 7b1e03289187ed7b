import { propertyKey } from "@mcp-gen/schema";

export { propertyKey };

const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package private protected public await".split(
    " ",
  ),
);

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

/** `search_devices` → `SearchDevices`, `read.file` → `ReadFile`, `2fa` → `_2fa`. */
export function pascalCase(name: string): string {
  const result = words(name)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("");
  return /^[0-9]/.test(result) ? `_${result}` : result || "_";
}

/** `search_devices` → `searchDevices`, `get-sum` → `getSum`. */
export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  const result = pascal.startsWith("_") ? pascal : pascal[0]!.toLowerCase() + pascal.slice(1);
  return RESERVED.has(result) ? `${result}_` : result;
}

/** A valid JS identifier close to `name` (`get-sum` → `get_sum`). */
export function identifier(name: string): string {
  const result = name.replace(/[^A-Za-z0-9_$]/g, "_");
  return /^[0-9]/.test(result) || RESERVED.has(result) ? `_${result}` : result;
}

/**
 * A JSON value as a one-line JavaScript literal, the way a person writes it:
 * `{ query: "lamp", limit: 5 }` rather than `{"query":"lamp","limit":5}`.
 */
export function jsLiteral(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsLiteral).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => `${propertyKey(k)}: ${jsLiteral(v)}`);
    return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
  }
  return value === undefined ? "undefined" : JSON.stringify(value);
}
