import type {
  ContractPrompt,
  ContractResource,
  ContractResourceResult,
  ContractResourceTemplate,
  JsonSchema,
} from "../contract.ts";
import { isSchemaObject } from "../schema-utils.ts";
import { parseUriTemplate } from "../uri-template/parse.ts";

/*
 * Resources and prompts as functions of a code-mode API:
 * - a static resource `name` → `read_<name>(): Promise<T>`;
 * - a resource template `name` (`file:///{path}`) → `read_<name>(args: { path: string }): Promise<T>`;
 * - a prompt `name` → `prompt_<name>(args): Promise<PromptMessage[]>` (its messages, as `prompts/get`).
 *
 * `T` is the resource's value: its JSON type when the contract types it (`result.kind: "json"`),
 * `string` for text (or a blob, base64), and `unknown` (parsed JSON, or the text) otherwise.
 */

/**
 * A static resource of a code-mode API, declared as `read_<name>(): Promise<T>`: `T` is its JSON
 * type when the contract types it, `string` for text or a blob (base64), else `unknown`.
 */
export interface ApiResource extends ContractResource {
  /** What mcp-gen knows of the value (`x-mcp-gen.resources[name].result`). */
  result?: ContractResourceResult;
}

/** A resource template of a code-mode API (see `ApiResource`). */
export interface ApiResourceTemplate extends ContractResourceTemplate {
  /** The typed variables (`x-mcp-gen.resourceTemplates[name].argumentsSchema`); default: every variable a string. */
  argumentsSchema?: JsonSchema;
  result?: ContractResourceResult;
}

/** A prompt of a code-mode API: its arguments typed by `argumentsSchema` when mcp-gen knows it. */
export interface ApiPrompt extends ContractPrompt {
  argumentsSchema?: JsonSchema;
}

/** One function of the API that is not a tool: which resource, template or prompt it reads. */
export type ReadFunction =
  | { kind: "resource"; name: string; resource: ApiResource }
  | { kind: "template"; name: string; template: ApiResourceTemplate }
  | { kind: "prompt"; name: string; prompt: ApiPrompt };

/** The message type of a prompt's function (MCP `PromptMessage`), declared once as `PromptMessage`. */
export const PROMPT_MESSAGES =
  '{ role: "user" | "assistant"; content: { type: "text"; text: string } | { type: "image" | "audio" | "resource" | "resource_link"; [key: string]: unknown } }';

/** The base name of a function before the identifier rule: `read_<name>` or `prompt_<name>`. */
export const readFunctionName = (f: ReadFunction) => `${f.kind === "prompt" ? "prompt" : "read"}_${f.name}`;

/** The resources, templates and prompts of a server, in that order. */
export function readFunctions(server: {
  resources?: readonly ApiResource[];
  resourceTemplates?: readonly ApiResourceTemplate[];
  prompts?: readonly ApiPrompt[];
}): ReadFunction[] {
  return [
    ...(server.resources ?? []).map((r) => ({ kind: "resource" as const, name: r.name, resource: r })),
    ...(server.resourceTemplates ?? []).map((t) => ({
      kind: "template" as const,
      name: t.name,
      template: t,
    })),
    ...(server.prompts ?? []).map((p) => ({ kind: "prompt" as const, name: p.name, prompt: p })),
  ];
}

/** The schema of a read function's arguments, or `undefined` when it takes none. */
export function readArguments(f: ReadFunction): JsonSchema | undefined {
  if (f.kind === "resource") return undefined;
  const typed = f.kind === "template" ? f.template.argumentsSchema : f.prompt.argumentsSchema;
  const props = (s: JsonSchema | undefined) =>
    isSchemaObject(s?.properties) ? Object.keys(s.properties) : [];
  if (typed && props(typed).length > 0) return typed;
  if (f.kind === "template") {
    const parsed = parseUriTemplate(f.template.uriTemplate);
    const names = "variables" in parsed ? parsed.variables : [];
    if (names.length === 0) return undefined;
    return object(Object.fromEntries(names.map((n) => [n, { type: "string" }])), [...names]);
  }
  const args = f.prompt.arguments ?? [];
  if (args.length === 0) return undefined;
  return object(
    Object.fromEntries(
      args.map((a) => [a.name, { type: "string", ...(a.description ? { description: a.description } : {}) }]),
    ),
    args.filter((a) => a.required === true).map((a) => a.name),
  );
}

const object = (properties: Record<string, unknown>, required: string[]): JsonSchema => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

/** The value a read function resolves to, as a schema (`undefined`: `unknown`), or the prompt's messages. */
export function readResult(f: ReadFunction): JsonSchema | "messages" | undefined {
  if (f.kind === "prompt") return "messages";
  const entry = f.kind === "resource" ? f.resource : f.template;
  const result = entry.result;
  if (result?.kind === "json") return result.schema;
  if (result) return { type: "string" };
  return entry.mimeType?.startsWith("text/") ? { type: "string" } : undefined;
}

/** The doc lines of a read function: its description (or title), then what it reads. */
export function readDoc(f: ReadFunction): string[] {
  const entry = f.kind === "resource" ? f.resource : f.kind === "template" ? f.template : f.prompt;
  const text = (entry.description ?? entry.title ?? "").trim();
  const mime = "mimeType" in entry && entry.mimeType ? ` (${entry.mimeType})` : "";
  const blob = "result" in entry && entry.result?.kind === "blob" ? ", base64" : "";
  const what =
    f.kind === "resource"
      ? `Reads resource ${f.resource.uri}${mime}${blob}.`
      : f.kind === "template"
        ? `Reads resource ${f.template.uriTemplate}${mime}${blob}.`
        : `Prompt ${JSON.stringify(f.name)}: its messages.`;
  return [...(text ? text.split("\n") : []), what];
}
