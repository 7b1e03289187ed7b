/**
 * The peer of the serve cold start: the MCP SDK v2's own `McpServer` (`@modelcontextprotocol/server`)
 * with the same tools registered with zod 4 schemas, served by `serveStdio` from a factory (both
 * protocol eras), as compiled JavaScript (an `.mjs` file), the way the SDK's v2 docs write a server
 * (`import * as z from "zod/v4"`, `inputSchema: z.object({ … })`).
 * The zod code is written from mcp-gen's contract of the server (`schemas/<server>.tools.json`):
 * the subset of JSON Schema the distinct corpus produces (primitive types, nullable unions, literal
 * enums, arrays, tuples, records, nested objects, optionals, defaults, descriptions).
 */

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  prefixItems?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  description?: string;
  default?: unknown;
};

interface ContractTool {
  name: string;
  description?: string;
  inputSchema: Schema;
  outputSchema?: Schema;
  annotations?: Record<string, unknown>;
}

const json = (value: unknown) => JSON.stringify(value);

function base(schema: Schema, type: string | undefined): string {
  if (schema.enum) {
    const values = schema.enum.filter((v) => v !== null);
    if (values.length === 1) return `z.literal(${json(values[0])})`;
    return values.every((v) => typeof v === "string")
      ? `z.enum(${json(values)})`
      : `z.union([${values.map((v) => `z.literal(${json(v)})`).join(", ")}])`;
  }
  switch (type) {
    case "string":
      return "z.string()";
    case "number":
      return "z.number()";
    case "integer":
      return "z.number().int()";
    case "boolean":
      return "z.boolean()";
    case "null":
      return "z.null()";
    case "array":
      if (schema.prefixItems) return `z.tuple([${schema.prefixItems.map(zodSource).join(", ")}])`;
      return `z.array(${schema.items ? zodSource(schema.items) : "z.unknown()"})`;
    case "object": {
      const extra = schema.additionalProperties;
      if (!schema.properties && extra && typeof extra === "object") {
        return `z.record(z.string(), ${zodSource(extra)})`;
      }
      return `z.object(${shape(schema)})`;
    }
    default: {
      const members = schema.anyOf ?? schema.oneOf;
      return members ? `z.union([${members.map(zodSource).join(", ")}])` : "z.unknown()";
    }
  }
}

/** zod source equivalent to a JSON Schema (the subset above). */
export function zodSource(schema: Schema): string {
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const nullable = types.includes("null") || (schema.enum?.includes(null) ?? false);
  const others = types.filter((t) => t !== "null");
  const nullOnly = types.length === 1 && types[0] === "null" && !schema.enum;
  let code = nullOnly
    ? "z.null()"
    : others.length > 1
      ? `z.union([${others.map((t) => base({}, t)).join(", ")}])`
      : base(schema, others[0]);
  if (nullable && !nullOnly) code += ".nullable()";
  if (schema.description !== undefined) code += `.describe(${json(schema.description)})`;
  if (schema.default !== undefined) code += `.default(${json(schema.default)})`;
  return code;
}

/** A zod raw shape (`{ name: schema, … }`) of an object schema's properties. */
export function shape(schema: Schema): string {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {}).map(([name, prop]) => {
    const optional = !required.has(name) && prop.default === undefined ? ".optional()" : "";
    return `${json(name)}: ${zodSource(prop)}${optional}`;
  });
  return `{ ${entries.join(", ")} }`;
}

/** The `.mjs` source of an SDK v2 `McpServer` registering every tool of a contract, on stdio. */
export function sdkServerSource(contract: { server: string; tools: ContractTool[] }): string {
  const lines = [
    "// The MCP SDK v2's McpServer with the tools of the mcp-gen contract registered with zod 4 schemas.",
    'import { McpServer } from "@modelcontextprotocol/server";',
    'import { serveStdio } from "@modelcontextprotocol/server/stdio";',
    'import * as z from "zod/v4";',
    "",
    'const notRun = async () => { throw new Error("not run by the benchmark"); };',
    "",
    "function createServer() {",
    `  const server = new McpServer({ name: ${json(contract.server)}, version: "0.0.0" });`,
  ];
  for (const tool of contract.tools) {
    const output =
      tool.outputSchema?.type === "object" && tool.outputSchema.properties
        ? `, outputSchema: z.object(${shape(tool.outputSchema)})`
        : "";
    const annotations = tool.annotations ? `, annotations: ${json(tool.annotations)}` : "";
    lines.push(
      `  server.registerTool(${json(tool.name)}, { description: ${json(tool.description ?? "")}, inputSchema: z.object(${shape(tool.inputSchema)})${output}${annotations} }, notRun);`,
    );
  }
  lines.push("  return server;", "}", "", "serveStdio(createServer);", "");
  return lines.join("\n");
}
