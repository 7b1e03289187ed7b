import { defineManifest, type ManifestTool, type ServerManifest } from "@mcp-gen/runtime/server";
import { createSchemaCompiler } from "../../packages/runtime/src/agent/tools/compile-schema.ts";

/**
 * The multi-step task's server, `crm`: 500 records to list, one to fetch in full, one to update
 * (destructive). 20 records are open and high priority; 4 of those are overdue, and the task
 * updates the first 3.
 */
export interface RecordsServer {
  manifest: ServerManifest;
  /** Ids updated so far. */
  updated: string[];
}

const summary = {
  type: "object",
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    status: { type: "string", enum: ["open", "closed"] },
    priority: { type: "string", enum: ["low", "high"] },
    owner: { type: "string" },
  },
  required: ["id", "name", "status", "priority", "owner"],
  additionalProperties: false,
} as const;

const detail = {
  type: "object",
  properties: {
    ...summary.properties,
    overdue: { type: "boolean" },
    notes: { type: "string" },
    history: { type: "array", items: { type: "string" } },
  },
  required: [...summary.required, "overdue", "notes", "history"],
  additionalProperties: false,
} as const;

export function recordsServer(): RecordsServer {
  const compile = createSchemaCompiler();
  const updated: string[] = [];
  const record = (i: number) => ({
    id: `rec-${String(i).padStart(3, "0")}`,
    name: `Customer ${i}`,
    status: i % 25 === 0 ? "open" : i % 2 === 0 ? "open" : "closed",
    priority: i % 25 === 0 ? "high" : "low",
    owner: `agent-${i % 7}`,
  });
  const records = Array.from({ length: 500 }, (_, i) => record(i));
  const tool = (spec: {
    name: string;
    description: string;
    input: Record<string, unknown>;
    output: Record<string, unknown>;
    annotations: Record<string, boolean>;
    invoke(args: any): unknown;
  }): ManifestTool => {
    const inputSchema = { type: "object" as const, additionalProperties: false, ...spec.input };
    const outputSchema = { type: "object" as const, ...spec.output };
    return {
      definition: {
        name: spec.name,
        description: spec.description,
        inputSchema,
        outputSchema,
        annotations: spec.annotations,
      },
      input: compile(inputSchema, `arguments of tool "${spec.name}"`).validator,
      output: compile(outputSchema, `result of tool "${spec.name}"`).validator,
      resultWrapped: false,
      usesContext: false,
      invoke: spec.invoke,
    };
  };
  const manifest = defineManifest({
    server: "crm",
    tools: [
      tool({
        name: "list_records",
        description: "List every customer record (summary fields only).",
        input: { properties: {} },
        output: { properties: { records: { type: "array", items: summary } }, required: ["records"] },
        annotations: { readOnlyHint: true },
        invoke: () => ({ records }),
      }),
      tool({
        name: "get_record",
        description: "Get one record in full: overdue flag, notes and history.",
        input: { properties: { id: { type: "string" } }, required: ["id"] },
        output: detail,
        annotations: { readOnlyHint: true },
        invoke: ({ id }: { id: string }) => {
          const i = Number(id.slice(4));
          return {
            ...records[i]!,
            overdue: i % 125 === 0,
            notes: `Renewal discussed on call ${i}; customer asked for a quote and a follow-up next quarter.`,
            history: [`created ${i}`, `contacted ${i + 1}`, `quoted ${i + 2}`],
          };
        },
      }),
      tool({
        name: "update_record",
        description: "Set a record's status.",
        input: {
          properties: { id: { type: "string" }, status: { type: "string", enum: ["open", "closed"] } },
          required: ["id", "status"],
        },
        output: {
          properties: { id: { type: "string" }, status: { type: "string" } },
          required: ["id", "status"],
        },
        annotations: { destructiveHint: true },
        invoke: ({ id, status }: { id: string; status: string }) => {
          updated.push(id);
          return { id, status };
        },
      }),
    ],
  });
  return { manifest, updated };
}
