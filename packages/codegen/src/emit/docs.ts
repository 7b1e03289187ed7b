import type { ContractTool, JsonSchema } from "@mcp-gen/schema";
import { isSchemaObject, resolveLocalRef, typesOf } from "@mcp-gen/schema";
import { annotationWords, argsOptional, clientNames, toolMethodNames } from "./client.ts";
import type { EmitContext } from "./context.ts";
import { exampleValue, toolExample } from "./example.ts";
import { jsLiteral } from "./names.ts";
import { type EmitItem, emitItems } from "./resources.ts";
import { isWrapped } from "./types.ts";
import { finish, GENERATED_NOTICE, type OutputFile } from "./writer.ts";

/** Nested object properties are listed down to this depth (`a.b.c`); deeper ones are summarised. */
const MAX_DEPTH = 4;

/**
 * Emits `TOOLS.md`: a readable reference of every tool — description, annotations, a parameters
 * table (types, required, defaults, constraints), the result, and an example call through the
 * typed client and as MCP `tools/call` arguments.
 */
export function emitDocs(ctx: EmitContext): OutputFile {
  const { server, tools } = ctx.contract;
  const methods = toolMethodNames(ctx);
  const names = clientNames(server);
  const lines = [
    `<!-- ${GENERATED_NOTICE} -->`,
    "",
    `# \`${server}\` tools`,
    "",
    `${tools.length} tool${tools.length === 1 ? "" : "s"}, from the contract \`${ctx.contractFile}\`. Call them with the typed`,
    `client: \`${names.factory}(client)\` from \`client.ts\`.`,
    "",
    ...tools.map((t) => `- [\`${t.name}\`](#${anchor(t.name)})${t.title ? ` — ${t.title}` : ""}`),
  ];
  for (const tool of tools) {
    lines.push("", `## \`${tool.name}\``, "");
    if (tool.title) lines.push(`**${tool.title}**`, "");
    lines.push(tool.description ?? "_No description._", "");
    const words = annotationWords(tool);
    if (words.length > 0) lines.push(`Annotations: ${words.join(", ")}.`, "");
    lines.push("### Parameters", "", ...table(tool.inputSchema, tool.inputSchema, "(no parameters)"), "");
    lines.push(...rules(tool.inputSchema));
    lines.push("### Result", "", ...result(ctx, tool), "");
    const example = toolExample(tool.inputSchema);
    const empty = isSchemaObject(example) && Object.keys(example).length === 0;
    const args = argsOptional(tool) && empty ? "" : jsLiteral(example);
    lines.push(
      "### Example",
      "",
      "```ts",
      `const r = await ${names.variable}.${methods.get(tool.name)}(${args});`,
      "if (r.ok) console.log(r.value);",
      "else console.error(r.message);",
      "```",
      "",
      "As MCP `tools/call` parameters:",
      "",
      "```json",
      JSON.stringify({ name: tool.name, arguments: example ?? {} }),
      "```",
    );
  }
  lines.push(...itemSections(ctx, names.variable));
  return { path: `${ctx.outDir}/TOOLS.md`, content: finish(lines.join("\n")) };
}

/** The sections of resources, resource templates and prompts (none when the server has none). */
function itemSections(ctx: EmitContext, variable: string): string[] {
  const items = emitItems(ctx);
  const lines: string[] = [];
  const head = (item: EmitItem) => {
    const entry = item.entry;
    lines.push("", `### \`${item.name}\``, "");
    if (entry.title) lines.push(`**${entry.title}**`, "");
    lines.push(entry.description ?? "_No description._", "");
  };
  const facts = (item: EmitItem, extra: string[]) => {
    const entry = item.entry as {
      mimeType?: string;
      size?: number;
      annotations?: { audience?: string[]; priority?: number };
    };
    const list = [...extra];
    if (entry.mimeType) list.push(`MIME type: \`${entry.mimeType}\``);
    if (entry.size !== undefined) list.push(`size: ${entry.size} bytes`);
    if (entry.annotations?.audience) list.push(`audience: ${entry.annotations.audience.join(", ")}`);
    if (entry.annotations?.priority !== undefined) list.push(`priority: ${entry.annotations.priority}`);
    list.push(`value: ${valueLabel(item)}`);
    lines.push(...list.map((f) => `- ${f}`), "");
  };
  if (items.resources.length > 0) {
    lines.push("", "## Resources");
    for (const item of items.resources) {
      head(item);
      facts(item, [`URI: \`${(item.entry as { uri: string }).uri}\``]);
      lines.push("```ts", `const value = await ${variable}.resources.${item.method}();`, "```");
    }
  }
  if (items.templates.length > 0) {
    lines.push("", "## Resource templates");
    for (const item of items.templates) {
      head(item);
      facts(item, [`URI template: \`${(item.entry as { uriTemplate: string }).uriTemplate}\``]);
      lines.push("#### Variables", "", ...argumentsTable(item), "");
      const example = exampleValue(item.argumentsSchema!, item.argumentsSchema!);
      lines.push(
        "```ts",
        `const value = await ${variable}.resources.${item.method}(${jsLiteral(example)});`,
        "```",
      );
    }
  }
  if (items.prompts.length > 0) {
    lines.push("", "## Prompts");
    for (const item of items.prompts) {
      head(item);
      lines.push("#### Arguments", "", ...argumentsTable(item), "");
      const example = exampleValue(item.argumentsSchema!, item.argumentsSchema!);
      const empty = isSchemaObject(example) && Object.keys(example).length === 0;
      lines.push(
        "```ts",
        `const messages = await ${variable}.prompts.${item.method}(${empty ? "" : jsLiteral(example)});`,
        "```",
      );
    }
  }
  return lines;
}

/** A table of a template's variables or a prompt's arguments, with their completions. */
function argumentsTable(item: EmitItem): string[] {
  const schema = item.argumentsSchema!;
  const rows = table(schema, schema, "(no arguments)");
  const complete = Object.entries(item.complete ?? {});
  if (complete.length === 0) return rows;
  return [
    ...rows,
    "",
    "Completions: " +
      complete
        .map(
          ([name, c]) =>
            `\`${name}\` (${"values" in c ? c.values.map((v) => JSON.stringify(v)).join(", ") : "by the server"})`,
        )
        .join("; ") +
      ".",
  ];
}

function valueLabel(item: EmitItem): string {
  switch (item.resultKind) {
    case "text":
      return "text (`string`)";
    case "blob":
      return "binary (`Uint8Array`)";
    case "json":
      return `JSON (\`${cell(typeLabel(item.resultSchema, item.resultSchema!))}\`)`;
    default:
      return "the contents as the server sends them";
  }
}

function result(ctx: EmitContext, tool: ContractTool): string[] {
  if (!tool.outputSchema) return ["Content blocks (text, images …); no structured result."];
  if (isWrapped(ctx, tool)) {
    const inner = (tool.outputSchema.properties as Record<string, unknown> | undefined)?.result;
    const description =
      isSchemaObject(inner) && typeof inner.description === "string" ? ` — ${inner.description}` : "";
    const rows = isSchemaObject(inner) ? table(inner, tool.outputSchema, "") : [];
    const head = `\`${cell(typeLabel(inner, tool.outputSchema))}\`${description} (sent as \`structuredContent: { result }\`).`;
    return rows.length > 0 && rows[0] !== "" ? [head, "", ...rows] : [head];
  }
  const description =
    typeof tool.outputSchema.description === "string" ? `${tool.outputSchema.description}` : "An object.";
  return [description, "", ...table(tool.outputSchema, tool.outputSchema, "")];
}

/** A Markdown table of an object's properties (nested objects and arrays of objects flattened). */
function table(schema: JsonSchema, root: JsonSchema, none: string): string[] {
  const rows: string[] = [];
  collect(schema, root, "", 0, new Set(), rows);
  if (rows.length === 0) return none ? [none] : [];
  return [
    "| name | type | required | default | constraints | description |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
  ];
}

function collect(
  schema: unknown,
  root: JsonSchema,
  prefix: string,
  depth: number,
  seen: Set<string>,
  rows: string[],
): void {
  const { node, refs } = resolve(schema, root, seen);
  const target = arrayItems(node, root, refs) ?? node;
  const itemPrefix = target !== node ? `${prefix}[]` : prefix;
  if (!isSchemaObject(target) || !isSchemaObject(target.properties)) return;
  const required = new Set(Array.isArray(target.required) ? target.required.map(String) : []);
  for (const [name, sub] of Object.entries(target.properties)) {
    const path = prefix === "" && itemPrefix === "" ? name : `${itemPrefix}.${name}`;
    const resolved = resolve(sub, root, refs);
    const s = isSchemaObject(resolved.node) ? resolved.node : {};
    rows.push(
      `| \`${cell(path)}\` | ${cell(typeLabel(sub, root))} | ${required.has(name) ? "yes" : "no"} | ${s.default !== undefined ? `\`${cell(JSON.stringify(s.default))}\`` : ""} | ${cell(constraints(s))} | ${cell(typeof s.description === "string" ? s.description : "")} |`,
    );
    if (depth + 1 < MAX_DEPTH) collect(sub, root, path, depth + 1, resolved.refs, rows);
  }
}

function resolve(schema: unknown, root: JsonSchema, seen: Set<string>): { node: unknown; refs: Set<string> } {
  if (isSchemaObject(schema) && typeof schema.$ref === "string") {
    if (seen.has(schema.$ref)) return { node: undefined, refs: seen };
    const refs = new Set([...seen, schema.$ref]);
    return resolve(resolveLocalRef(root, schema.$ref), root, refs);
  }
  return { node: schema, refs: seen };
}

function arrayItems(node: unknown, root: JsonSchema, refs: Set<string>): unknown {
  if (!isSchemaObject(node) || !typesOf(node).includes("array") || !isSchemaObject(node.items))
    return undefined;
  return resolve(node.items, root, refs).node;
}

/** A short TypeScript-like label for a schema: `string`, `"a" \| "b"`, `Device[]`, `Record<string, number>`. */
export function typeLabel(schema: unknown, root: JsonSchema): string {
  if (schema === true || (isSchemaObject(schema) && Object.keys(schema).length === 0)) return "any";
  if (!isSchemaObject(schema)) return "never";
  if (typeof schema.$ref === "string") return schema.$ref.split("/").pop() ?? "object";
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  for (const key of ["anyOf", "oneOf"]) {
    const list = schema[key];
    if (Array.isArray(list)) return [...new Set(list.map((s) => typeLabel(s, root)))].join(" | ");
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((s) => typeLabel(s, root)).join(" & ");
  const types = typesOf(schema);
  if (types.length === 0) return "properties" in schema ? "object" : "any";
  return types
    .map((t) => {
      if (t === "array") {
        if (Array.isArray(schema.prefixItems))
          return `[${schema.prefixItems.map((s) => typeLabel(s, root)).join(", ")}]`;
        const item = typeLabel(schema.items ?? true, root);
        return /[| ]/.test(item) ? `(${item})[]` : `${item}[]`;
      }
      if (t === "object" && !isSchemaObject(schema.properties) && isSchemaObject(schema.additionalProperties))
        return `Record<string, ${typeLabel(schema.additionalProperties, root)}>`;
      return t;
    })
    .join(" | ");
}

const CONSTRAINTS: [string, (v: unknown) => string][] = [
  ["minimum", (v) => `≥ ${v}`],
  ["exclusiveMinimum", (v) => `> ${v}`],
  ["maximum", (v) => `≤ ${v}`],
  ["exclusiveMaximum", (v) => `< ${v}`],
  ["multipleOf", (v) => `multiple of ${v}`],
  ["minLength", (v) => `length ≥ ${v}`],
  ["maxLength", (v) => `length ≤ ${v}`],
  ["pattern", (v) => `matches \`${v}\``],
  ["format", (v) => `format ${v}`],
  ["minItems", (v) => `≥ ${v} items`],
  ["maxItems", (v) => `≤ ${v} items`],
  ["uniqueItems", (v) => (v === true ? "unique items" : "")],
  ["minProperties", (v) => `≥ ${v} properties`],
  ["maxProperties", (v) => `≤ ${v} properties`],
  ["deprecated", (v) => (v === true ? "deprecated" : "")],
];

/** Root keywords that relate the parameters (a hand-written schema's `allOf`, `if`/`then`/`else` …). */
const RULE_KEYWORDS = [
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
];

/** The rules between the parameters, as JSON, under the table (the server checks them on every call). */
function rules(schema: JsonSchema): string[] {
  const found = RULE_KEYWORDS.filter((k) => schema[k] !== undefined);
  if (found.length === 0) return [];
  return [
    "Rules between the parameters (checked on every call):",
    "",
    ...found.map((k) => `- \`${k}\`: \`${JSON.stringify(schema[k])}\``),
    "",
  ];
}

function constraints(schema: JsonSchema): string {
  return CONSTRAINTS.filter(([k]) => schema[k] !== undefined)
    .map(([k, text]) => text(schema[k]))
    .filter(Boolean)
    .join(", ");
}

const CELL_ESCAPES = /[\\|\n]/;

/** Text safe inside a Markdown table cell. */
function cell(text: string): string {
  // most cells hold none of these: one scan instead of three replacements
  if (!CELL_ESCAPES.test(text)) return text;
  return text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** GitHub's heading anchor for `` `name` ``. */
function anchor(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, "")
    .replace(/ /g, "-");
}
