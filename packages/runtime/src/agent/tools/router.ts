import type { ToolDefinition } from "../../server/manifest.ts";
import type { AgentTool } from "./agent-tool.ts";
import { createSchemaCompiler } from "./compile-schema.ts";
import { convertedDialects, offerOf } from "./dialects.ts";
import type { OfferedTool, Routed } from "./toolset.ts";

/** The single tool of router mode and how its calls resolve. */
export interface Router {
  tool: AgentTool;
  /** Resolves canonical router arguments `{ resource, operation, params }` to the operation. */
  route(args: unknown): Routed;
}

/**
 * Seed 002's `mcp_query`: one tool whose description lists every source (resource) and its
 * tools (operations) with their parameters. The envelope is validated, then `params` against
 * the chosen operation's own validator, so router mode keeps the same guarantees.
 */
export function createRouter(options: {
  name: string;
  tools: readonly OfferedTool[];
  descriptions: ReadonlyMap<string, string | undefined>;
}): Router {
  const bySource = new Map<string, Map<string, OfferedTool>>();
  for (const t of options.tools) {
    const operations = bySource.get(t.source) ?? new Map<string, OfferedTool>();
    bySource.set(t.source, operations);
    operations.set(t.tool.name, t);
  }
  const resources = [...bySource.keys()];
  const definition: ToolDefinition = {
    name: options.name,
    description: describe(bySource, options.descriptions),
    inputSchema: {
      type: "object",
      properties: {
        resource: { type: "string", enum: resources, description: "The MCP server (resource) to use." },
        operation: { type: "string", description: "The operation (tool) of that resource." },
        params: {
          type: "object",
          description: "Arguments of the operation, as its parameters are listed. Default: {}.",
        },
      },
      required: ["resource", "operation"],
      additionalProperties: false,
    },
  };
  const input = createSchemaCompiler()(
    definition.inputSchema,
    `arguments of tool "${options.name}"`,
  ).validator;
  const dialects = convertedDialects("router", [definition]);
  const tool: AgentTool = {
    name: options.name,
    definition,
    input,
    offer: (dialect) => offerOf(dialects, dialect, options.name),
    normalize: (dialect, args) => dialects.normalize(dialect, options.name, args),
    execute: () => Promise.reject(new Error("the router tool itself is never executed")),
  };
  return {
    tool,
    route(args) {
      const checked = input.check(args);
      if (!checked.ok)
        return {
          ok: false,
          reason: "invalid",
          key: options.name,
          message: checked.message,
          issues: checked.issues,
        };
      const { resource, operation, params } = checked.value as {
        resource: string;
        operation: string;
        params?: unknown;
      };
      const target = bySource.get(resource)?.get(operation);
      if (!target) {
        const known = [...(bySource.get(resource)?.keys() ?? [])].join(", ");
        return {
          ok: false,
          reason: "invalid",
          key: `${options.name}:${resource}`,
          message: `Resource "${resource}" has no operation "${operation}". Its operations: ${known}.`,
          issues: [],
        };
      }
      return {
        ok: true,
        target,
        args: params ?? {},
        feedbackPrefix: `In "params" of ${resource}/${operation}`,
      };
    },
  };
}

function describe(
  bySource: ReadonlyMap<string, ReadonlyMap<string, OfferedTool>>,
  descriptions: ReadonlyMap<string, string | undefined>,
): string {
  const lines = [
    "Interact with the connected MCP servers. Send a JSON object with 'resource' (the server),",
    "'operation' (one of its tools) and 'params' (the operation's arguments).",
    "",
    "Available resources and their operations:",
  ];
  for (const [source, operations] of bySource) {
    const about = descriptions.get(source);
    lines.push(`- Resource '${source}'${about ? `: ${firstLine(about)}` : ""}`);
    for (const [name, t] of operations) {
      const summary = t.tool.definition.description ? `: ${firstLine(t.tool.definition.description)}` : "";
      lines.push(`  - Operation '${name}'${summary}. Parameters: ${parameters(t.tool.definition)}.`);
    }
  }
  return lines.join("\n");
}

function parameters(definition: ToolDefinition): string {
  const schema = definition.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
  const entries = Object.entries(schema.properties ?? {});
  if (entries.length === 0) return "none";
  return entries
    .map(([name, s]) => {
      const required = schema.required?.includes(name) ? ", required" : "";
      return `${name} (${typeName(s)}${required})`;
    })
    .join(", ");
}

function typeName(schema: unknown): string {
  if (schema === null || typeof schema !== "object") return "any";
  const s = schema as { type?: unknown; items?: unknown; enum?: unknown[] };
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(" | ")}`;
  if (s.type === "array") return `array of ${typeName(s.items)}`;
  if (Array.isArray(s.type)) return s.type.join(" | ");
  return typeof s.type === "string" ? s.type : "any";
}

function firstLine(text: string): string {
  return text.split("\n")[0]!.replace(/[.\s]+$/, "");
}
