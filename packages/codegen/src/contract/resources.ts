import type {
  Contract,
  ContractArgumentsExtras,
  ContractPrompt,
  ContractPromptExtras,
  ContractResource,
  ContractResourceExtras,
  ContractResourceResult,
  ContractResourceTemplate,
  ContractResourceTemplateExtras,
  FunctionBinding,
  JsonSchema,
} from "@mcp-gen/schema";
import { canonicalSchema } from "@mcp-gen/schema";
import type {
  IrFunctionBinding,
  IrParam,
  IrPrompt,
  IrResource,
  IrResourceResult,
  IrResourceTemplate,
  IrServer,
  IrType,
} from "../ir/types.ts";
import { schemaOf, withDefs } from "./from-ir.ts";

type Lists = Pick<Contract, "resources" | "resourceTemplates" | "prompts">;
type Extras = Pick<NonNullable<Contract["x-mcp-gen"]>, "resources" | "resourceTemplates" | "prompts">;

/**
 * The resources, templates and prompts of a server in their MCP list shapes, and what the
 * emitters need of them under `x-mcp-gen`. Nothing for a server without them, so its contract
 * keeps its bytes.
 */
export function resourcesFromIr(server: IrServer): { lists: Lists; extras: Extras } {
  const lists: Lists = {};
  const extras: Extras = {};
  const defs = server.definitions;
  if (server.resources?.length) {
    lists.resources = server.resources.map(resourceEntry);
    extras.resources = Object.fromEntries(
      server.resources.map((r): [string, ContractResourceExtras] => [
        r.name,
        { binding: bindingOf(r.binding, [], r.contextIndex), result: resultOf(r.result, defs) },
      ]),
    );
  }
  if (server.resourceTemplates?.length) {
    lists.resourceTemplates = server.resourceTemplates.map(templateEntry);
    extras.resourceTemplates = Object.fromEntries(
      server.resourceTemplates.map((t): [string, ContractResourceTemplateExtras] => [
        t.name,
        { ...argumentsExtras(t, defs), result: resultOf(t.result, defs) },
      ]),
    );
  }
  if (server.prompts?.length) {
    lists.prompts = server.prompts.map(promptEntry);
    extras.prompts = Object.fromEntries(
      server.prompts.map((p): [string, ContractPromptExtras] => [
        p.name,
        { ...argumentsExtras(p, defs), result: p.result },
      ]),
    );
  }
  return { lists, extras };
}

function resourceEntry(r: IrResource): ContractResource {
  const entry: ContractResource = { uri: r.uri, name: r.name };
  if (r.title) entry.title = r.title;
  if (r.description) entry.description = r.description;
  const mimeType = r.mimeType ?? (r.result.kind === "json" ? "application/json" : undefined);
  if (mimeType) entry.mimeType = mimeType;
  if (r.size !== undefined) entry.size = r.size;
  if (r.icons) entry.icons = r.icons.map((i) => ({ ...i }));
  if (r.annotations) entry.annotations = { ...r.annotations };
  return entry;
}

function templateEntry(t: IrResourceTemplate): ContractResourceTemplate {
  const entry: ContractResourceTemplate = { uriTemplate: t.uriTemplate, name: t.name };
  if (t.title) entry.title = t.title;
  if (t.description) entry.description = t.description;
  const mimeType = t.mimeType ?? (t.result.kind === "json" ? "application/json" : undefined);
  if (mimeType) entry.mimeType = mimeType;
  if (t.icons) entry.icons = t.icons.map((i) => ({ ...i }));
  if (t.annotations) entry.annotations = { ...t.annotations };
  return entry;
}

function promptEntry(p: IrPrompt): ContractPrompt {
  const entry: ContractPrompt = { name: p.name };
  if (p.title) entry.title = p.title;
  if (p.description) entry.description = p.description;
  if (p.params.length > 0) {
    entry.arguments = p.params.map((param) => ({
      name: param.name,
      ...(param.type.description ? { description: param.type.description } : {}),
      ...(param.required ? { required: true } : {}),
    }));
  }
  if (p.icons) entry.icons = p.icons.map((i) => ({ ...i }));
  return entry;
}

function bindingOf(
  binding: IrFunctionBinding,
  params: readonly IrParam[],
  contextIndex?: number,
): FunctionBinding {
  return {
    module: binding.module,
    export: binding.export,
    params: params.map((p) => p.name),
    ...(contextIndex !== undefined ? { contextIndex } : {}),
  };
}

function argumentsExtras(
  item: IrResourceTemplate | IrPrompt,
  definitions: Record<string, IrType>,
): ContractArgumentsExtras {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const param of item.params) {
    properties[param.name] = schemaOf(param.type);
    if (param.required) required.push(param.name);
  }
  const schema: JsonSchema = { type: "object", properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  const extras: ContractArgumentsExtras = {
    binding: bindingOf(item.binding, item.params, item.contextIndex),
    argumentsSchema: canonicalSchema(withDefs(schema, definitions)) as JsonSchema,
  };
  if (Object.keys(item.coerce).length > 0) extras.coerce = { ...item.coerce };
  if (Object.keys(item.complete).length > 0) {
    extras.complete = Object.fromEntries(
      Object.entries(item.complete).map(([name, c]) => [
        name,
        "values" in c
          ? { values: [...c.values] }
          : { binding: { module: c.binding.module, export: c.binding.export } },
      ]),
    );
  }
  return extras;
}

function resultOf(result: IrResourceResult, definitions: Record<string, IrType>): ContractResourceResult {
  if (result.kind !== "json") return { kind: result.kind };
  return {
    kind: "json",
    schema: canonicalSchema(withDefs(schemaOf(result.type), definitions)) as JsonSchema,
  };
}
