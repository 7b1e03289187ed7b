import type {
  ContractCoercions,
  ContractCompletion,
  ContractPrompt,
  ContractResource,
  ContractResourceTemplate,
  FunctionBinding,
  JsonSchema,
} from "@mcp-gen/schema";
import { diagnostic, escapeToken, McpGenError } from "@mcp-gen/schema";
import type { EmitContext } from "./context.ts";
import { camelCase, identifier, pascalCase } from "./names.ts";

/** One resource, resource template or prompt of a contract, with the names the emitters give it. */
export interface EmitItem {
  kind: "resource" | "template" | "prompt";
  name: string;
  /** Position in its contract list. */
  index: number;
  /** JSON pointer of its list entry. */
  pointer: string;
  /** `resource "x"`, `resource template "x"`, `prompt "x"`. */
  label: string;
  entry: ContractResource | ContractResourceTemplate | ContractPrompt;
  binding?: FunctionBinding;
  /** Templates and prompts: the schema of the typed arguments (derived for pulled contracts). */
  argumentsSchema?: JsonSchema;
  /** Where `argumentsSchema` is, or the list entry it is derived from. */
  argumentsPointer?: string;
  coerce?: ContractCoercions;
  complete?: Record<string, ContractCompletion>;
  /** Resources: `text`, `blob`, `json` (with its schema); prompts: `text`, `messages`. Absent when pulled. */
  resultKind?: "text" | "blob" | "json" | "messages";
  resultSchema?: JsonSchema;
  resultPointer?: string;
  /** Method of the typed client (`resources.<method>`, `prompts.<method>`). */
  method: string;
  /** Export of the arguments validator in `validators.ts`. */
  validator?: string;
  /** Generated type of the arguments and of a JSON value. */
  argsType?: string;
  valueType?: string;
}

export interface EmitItems {
  resources: EmitItem[];
  templates: EmitItem[];
  prompts: EmitItem[];
}

/**
 * The resources, templates and prompts of the contract with their client method, type and
 * validator names. Two that map to one name are an error naming both (MCPG032), as for tools.
 */
export function emitItems(ctx: EmitContext): EmitItems {
  const { contract } = ctx;
  const extras = contract["x-mcp-gen"];
  const resources = (contract.resources ?? []).map((entry, index): EmitItem => {
    const extra = extras?.resources?.[entry.name];
    const pointer = `/resources/${index}`;
    const item: EmitItem = {
      kind: "resource",
      name: entry.name,
      index,
      pointer,
      label: `resource "${entry.name}"`,
      entry,
      method: camelCase(entry.name),
    };
    if (extra?.binding) item.binding = extra.binding;
    if (extra?.result)
      setResult(item, extra.result, `/x-mcp-gen/resources/${escapeToken(entry.name)}/result`);
    return item;
  });
  const templates = (contract.resourceTemplates ?? []).map((entry, index): EmitItem => {
    const extra = extras?.resourceTemplates?.[entry.name];
    const at = `/x-mcp-gen/resourceTemplates/${escapeToken(entry.name)}`;
    const item: EmitItem = {
      kind: "template",
      name: entry.name,
      index,
      pointer: `/resourceTemplates/${index}`,
      label: `resource template "${entry.name}"`,
      entry,
      method: camelCase(entry.name),
      argumentsSchema: extra?.argumentsSchema ?? templateSchema(entry.uriTemplate),
      argumentsPointer: extra?.argumentsSchema ? `${at}/argumentsSchema` : `/resourceTemplates/${index}`,
      validator: `${identifier(entry.name)}_variables`,
      argsType: `${pascalCase(entry.name)}Variables`,
    };
    if (extra?.binding) item.binding = extra.binding;
    if (extra?.coerce) item.coerce = extra.coerce;
    if (extra?.complete) item.complete = extra.complete;
    if (extra?.result) setResult(item, extra.result, `${at}/result`);
    return item;
  });
  const prompts = (contract.prompts ?? []).map((entry, index): EmitItem => {
    const extra = extras?.prompts?.[entry.name];
    const at = `/x-mcp-gen/prompts/${escapeToken(entry.name)}`;
    const item: EmitItem = {
      kind: "prompt",
      name: entry.name,
      index,
      pointer: `/prompts/${index}`,
      label: `prompt "${entry.name}"`,
      entry,
      method: camelCase(entry.name),
      argumentsSchema: extra?.argumentsSchema ?? promptSchema(entry),
      argumentsPointer: extra?.argumentsSchema ? `${at}/argumentsSchema` : `/prompts/${index}`,
      validator: `${identifier(entry.name)}_arguments`,
      argsType: `${pascalCase(entry.name)}Arguments`,
    };
    if (extra?.binding) item.binding = extra.binding;
    if (extra?.coerce) item.coerce = extra.coerce;
    if (extra?.complete) item.complete = extra.complete;
    if (extra?.result) item.resultKind = extra.result;
    return item;
  });
  checkUnique(ctx, [...resources, ...templates], (i) => i.method, "the client method resources.");
  checkUnique(ctx, prompts, (i) => i.method, "the client method prompts.");
  checkUnique(ctx, [...templates, ...prompts], (i) => i.validator!, "the validator ");
  return { resources, templates, prompts };
}

/** Every item of the contract, resources first. */
export function allItems(items: EmitItems): EmitItem[] {
  return [...items.resources, ...items.templates, ...items.prompts];
}

/** The generated type names of the items (arguments and JSON values). */
export function itemTypeNames(items: EmitItems): string[] {
  return allItems(items).flatMap((i) => [i.argsType, i.valueType].filter((n): n is string => !!n));
}

function setResult(
  item: EmitItem,
  result: { kind: "text" | "blob" } | { kind: "json"; schema: JsonSchema },
  pointer: string,
): void {
  item.resultKind = result.kind;
  if (result.kind === "json") {
    item.resultSchema = result.schema;
    item.resultPointer = `${pointer}/schema`;
    item.valueType = `${pascalCase(item.name)}Contents`;
  }
}

function checkUnique(
  ctx: EmitContext,
  items: readonly EmitItem[],
  key: (item: EmitItem) => string,
  what: string,
): void {
  const owners = new Map<string, EmitItem>();
  for (const item of items) {
    const other = owners.get(key(item));
    if (other) {
      throw new McpGenError(
        diagnostic("MCPG032", `${other.label} and ${item.label} both map to ${what}${key(item)}`, {
          file: ctx.contractFile,
          pointer: `${item.pointer}/name`,
        }),
      );
    }
    owners.set(key(item), item);
  }
}

/** A pulled template's variables: strings, required but for query (`{?…}`, `{&…}`) and fragment ones. */
function templateSchema(template: string): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [, op = "", body = ""] of template.matchAll(/\{([+#./;?&]?)([^{}]*)\}/g)) {
    for (const spec of body.split(",")) {
      const name = spec.replace(/(:\d+|\*)$/, "");
      if (!name || name in properties) continue;
      properties[name] = { type: "string" };
      if (!["?", "&", "#"].includes(op)) required.push(name);
    }
  }
  return objectSchema(properties, required);
}

/** A pulled prompt's arguments: strings, with their descriptions and `required`. */
function promptSchema(prompt: ContractPrompt): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const arg of prompt.arguments ?? []) {
    properties[arg.name] = arg.description
      ? { type: "string", description: arg.description }
      : { type: "string" };
    if (arg.required) required.push(arg.name);
  }
  return objectSchema(properties, required);
}

function objectSchema(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  const schema: JsonSchema = { type: "object", properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  return schema;
}
