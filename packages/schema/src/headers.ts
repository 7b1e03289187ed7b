import { escapeToken, isSchemaObject } from "./schema-utils.ts";

/** The schema extension that mirrors a tool argument into an HTTP header (MCP 2026-07-28, SEP-2243). */
export const MCP_HEADER_KEYWORD = "x-mcp-header";

/** One argument a client mirrors into the `Mcp-Param-{name}` header of a `tools/call` over HTTP. */
export interface McpHeader {
  /** The name part: the header is `Mcp-Param-{name}`. */
  name: string;
  /** Property names from the arguments object to the value. */
  path: string[];
  type: "string" | "integer" | "boolean";
}

/** Why an `x-mcp-header` declaration is invalid (clients must reject the tool), at a pointer into the schema. */
export interface McpHeaderProblem {
  pointer: string;
  message: string;
}

/** RFC 9110 field-name token syntax (1*tchar). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

const TYPES = new Set(["string", "integer", "boolean"]);

/**
 * The `x-mcp-header` declarations of a tool's `inputSchema`, and what makes any of them invalid
 * under MCP 2026-07-28's rules: the name must be an HTTP token, unique ignoring case; the
 * property must be a string, integer or boolean; and it must be reachable from the root through
 * `properties` alone (not under `items`, a composition, a condition, `additionalProperties` or
 * a `$ref`).
 *
 * @example
 * scanMcpHeaders({ type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } });
 * // { headers: [{ name: "Region", path: ["region"], type: "string" }], problems: [] }
 */
export function scanMcpHeaders(inputSchema: unknown): { headers: McpHeader[]; problems: McpHeaderProblem[] } {
  const headers: McpHeader[] = [];
  const problems: McpHeaderProblem[] = [];
  // most schemas declare none: find that out without building a pointer or a path per node
  if (!declaresHeader(inputSchema)) return { headers, problems };
  const seen = new Map<string, string>();
  const visit = (node: unknown, pointer: string, path: string[] | undefined): void => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        visit(item, `${pointer}/${i}`, undefined);
      });
      return;
    }
    if (!isSchemaObject(node)) return;
    if (Object.hasOwn(node, MCP_HEADER_KEYWORD)) {
      const name = node[MCP_HEADER_KEYWORD];
      const at = `${pointer}/${MCP_HEADER_KEYWORD}`;
      if (typeof name !== "string" || !TOKEN.test(name)) {
        problems.push({
          pointer: at,
          message: `x-mcp-header ${JSON.stringify(name)} is not an HTTP header name (letters, digits and !#$%&'*+-.^_\`|~)`,
        });
      } else if (!path || path.length === 0) {
        problems.push({
          pointer: at,
          message: `x-mcp-header "${name}" is not reachable from the arguments through "properties" alone (not under items, anyOf/oneOf/allOf, additionalProperties or a $ref)`,
        });
      } else if (typeof node.type !== "string" || !TYPES.has(node.type)) {
        problems.push({
          pointer: at,
          message: `x-mcp-header "${name}" is on a ${JSON.stringify(node.type ?? "untyped")} value; only string, integer and boolean arguments can travel in a header`,
        });
      } else if (seen.has(name.toLowerCase())) {
        problems.push({
          pointer: at,
          message: `x-mcp-header "${name}" repeats "${seen.get(name.toLowerCase())}" (header names ignore case)`,
        });
      } else {
        seen.set(name.toLowerCase(), name);
        headers.push({ name, path, type: node.type as McpHeader["type"] });
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "properties" && isSchemaObject(value)) {
        for (const [property, schema] of Object.entries(value)) {
          visit(
            schema,
            `${pointer}/properties/${escapeToken(property)}`,
            path ? [...path, property] : undefined,
          );
        }
      } else if (
        key !== MCP_HEADER_KEYWORD &&
        key !== "const" &&
        key !== "enum" &&
        key !== "default" &&
        key !== "examples"
      ) {
        if (typeof value === "object" && value !== null)
          visit(value, `${pointer}/${escapeToken(key)}`, undefined);
      }
    }
  };
  visit(inputSchema, "", []);
  return { headers, problems };
}

/** Whether `scanMcpHeaders` would meet an `x-mcp-header` keyword: the same walk, allocating nothing. */
function declaresHeader(node: unknown): boolean {
  if (Array.isArray(node)) {
    for (const item of node) if (declaresHeader(item)) return true;
    return false;
  }
  if (!isSchemaObject(node)) return false;
  if (Object.hasOwn(node, MCP_HEADER_KEYWORD)) return true;
  for (const key in node) {
    if (!Object.hasOwn(node, key)) continue;
    const value = node[key];
    if (key === "properties" && isSchemaObject(value)) {
      // every property, whatever its name (one may be called "enum")
      for (const name in value) if (Object.hasOwn(value, name) && declaresHeader(value[name])) return true;
    } else if (!DATA_KEYS.has(key) && typeof value === "object" && value !== null && declaresHeader(value))
      return true;
  }
  return false;
}

/** Values `scanMcpHeaders` does not look into (data, not schemas). */
const DATA_KEYS = new Set(["const", "enum", "default", "examples"]);
