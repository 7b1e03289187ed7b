import type { ContractTool, JsonSchema } from "@mcp-gen/schema";
import { diagnostic, docLines, escapeToken, McpGenError, schemaToTs } from "@mcp-gen/schema";
import { type EmitContext, warnAt } from "./context.ts";
import { pascalCase, propertyKey } from "./names.ts";
import { allItems, emitItems, itemTypeNames } from "./resources.ts";
import { codeHeader, finish, jsdoc, type OutputFile } from "./writer.ts";

/** TypeScript names of one tool's types. */
export interface ToolTypeNames {
  input: string;
  output?: string;
  /** The unwrapped result (`output.result` for wrapped results, else the output itself). */
  result?: string;
}

/** Type names per tool, shared by every emitter that refers to the generated types. */
export function toolTypeNames(ctx: EmitContext): Map<string, ToolTypeNames> {
  const names = new Map<string, ToolTypeNames>();
  const owners = new Map<string, string>();
  ctx.contract.tools.forEach((tool, i) => {
    const base = pascalCase(tool.name);
    const other = owners.get(base);
    if (other !== undefined) {
      throw new McpGenError(
        diagnostic("MCPG032", `tools "${other}" and "${tool.name}" both map to the TypeScript name ${base}`, {
          file: ctx.contractFile,
          pointer: `/tools/${i}/name`,
        }),
      );
    }
    owners.set(base, tool.name);
    const entry: ToolTypeNames = { input: `${base}Input` };
    if (tool.outputSchema) {
      entry.output = `${base}Output`;
      entry.result = isWrapped(ctx, tool) ? `${base}Result` : entry.output;
    }
    names.set(tool.name, entry);
  });
  return names;
}

export function isWrapped(ctx: EmitContext, tool: ContractTool): boolean {
  return ctx.contract["x-mcp-gen"]?.tools[tool.name]?.resultWrapped === true;
}

const isObject = (v: unknown): v is JsonSchema => v !== null && typeof v === "object" && !Array.isArray(v);

/** Emits `types.ts`: input, output and result types of every tool, their shared definitions, and `ToolTypes`. */
export function emitTypes(ctx: EmitContext): OutputFile {
  const names = toolTypeNames(ctx);
  const items = emitItems(ctx);
  const taken = new Set<string>(["ToolTypes"]);
  for (const n of names.values()) for (const v of Object.values(n)) taken.add(v);
  for (const name of itemTypeNames(items)) {
    if (taken.has(name)) {
      throw new McpGenError(
        diagnostic("MCPG032", `the generated type ${name} of a resource or prompt is also a tool's type`, {
          file: ctx.contractFile,
          fix: "rename the resource, template or prompt (JSDoc `@name`)",
        }),
      );
    }
    taken.add(name);
  }
  const defs = new Map<string, { json: string; name: string }>();
  const defName = new Map<string, string>();
  const declarations: string[] = [];

  // First name every definition (refs may point forward), then print them.
  const pending: { name: string; schema: unknown; pointer: string; slot: string; tool: number }[] = [];
  ctx.contract.tools.forEach((tool, i) => {
    for (const [slot, schema] of [
      ["inputSchema", tool.inputSchema],
      ["outputSchema", tool.outputSchema],
    ] as const) {
      if (!isObject(schema)) continue;
      for (const key of ["$defs", "definitions"]) {
        const group = schema[key];
        if (!isObject(group)) continue;
        for (const [def, defSchema] of Object.entries(group)) {
          const json = JSON.stringify(defSchema);
          const known = defs.get(def);
          let name: string;
          if (known && known.json === json) name = known.name;
          else {
            name = pascalCase(def);
            if (taken.has(name) || known) name = `${pascalCase(tool.name)}${pascalCase(def)}`;
            while (taken.has(name)) name = `${name}_`;
            taken.add(name);
            if (!known) defs.set(def, { json, name });
            pending.push({
              name,
              schema: defSchema,
              pointer: `/tools/${i}/${slot}/${key}/${escapeToken(def)}`,
              slot,
              tool: i,
            });
          }
          defName.set(`${i}/${slot}/${key}/${def}`, name);
          // `$ref: "#addressDef"` names the definition by its `$anchor`
          if (isObject(defSchema) && typeof defSchema.$anchor === "string")
            defName.set(`${i}/${slot}/#${defSchema.$anchor}`, name);
        }
      }
    }
  });
  for (const d of pending) declarations.push(declare(d.name, d.schema, d.pointer, d.tool, d.slot));

  function resolver(i: number, slot: string, rootName: string) {
    return (ref: string): string | undefined => {
      if (ref === "#") return rootName;
      if (/^#[A-Za-z_]/.test(ref)) return defName.get(`${i}/${slot}/${ref}`);
      const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
      if (!match) return undefined;
      const def = match[2]!.replace(/~1/g, "/").replace(/~0/g, "~");
      return defName.get(`${i}/${slot}/${match[1]}/${def}`);
    };
  }

  function declare(name: string, schema: unknown, pointer: string, i: number, slot: string): string {
    const text = schemaToTs(schema, pointer, {
      resolveRef: resolver(i, slot, name),
      warn: (p, m) => warnAt(ctx, p, `tool "${ctx.contract.tools[i]?.name}": ${m}`),
    });
    const doc = docLines(schema);
    const prefix = jsdoc(doc);
    return isInterfaceShape(schema) && text.startsWith("{\n")
      ? `${prefix}export interface ${name} ${text}`
      : `${prefix}export type ${name} = ${text};`;
  }

  const toolBlocks: string[] = [];
  ctx.contract.tools.forEach((tool, i) => {
    const n = names.get(tool.name)!;
    toolBlocks.push(
      declare(n.input, withoutDefs(tool.inputSchema), `/tools/${i}/inputSchema`, i, "inputSchema"),
    );
    if (tool.outputSchema && n.output) {
      toolBlocks.push(
        declare(n.output, withoutDefs(tool.outputSchema), `/tools/${i}/outputSchema`, i, "outputSchema"),
      );
      if (n.result !== n.output) {
        const result = (tool.outputSchema.properties as Record<string, unknown> | undefined)?.result;
        toolBlocks.push(
          declare(n.result!, result ?? true, `/tools/${i}/outputSchema/properties/result`, i, "outputSchema"),
        );
      }
    }
  });

  // template variables, prompt arguments and JSON resource values, each with its own definitions
  for (const item of allItems(items)) {
    for (const [name, schema, pointer] of [
      [item.argsType, item.argumentsSchema, item.argumentsPointer],
      [item.valueType, item.resultSchema, item.resultPointer],
    ] as const) {
      if (!name || !schema || !pointer) continue;
      const defs = isObject(schema.$defs) ? schema.$defs : {};
      const local = new Map<string, string>();
      for (const def of Object.keys(defs)) {
        let defName = `${name}${pascalCase(def)}`;
        while (taken.has(defName)) defName = `${defName}_`;
        taken.add(defName);
        local.set(def, defName);
      }
      const print = (typeName: string, part: unknown, at: string) => {
        const text = schemaToTs(part, at, {
          resolveRef: (ref) => (ref === "#" ? name : local.get(ref.replace(/^#\/\$defs\//, ""))),
          warn: (p, m) => warnAt(ctx, p, `${item.label}: ${m}`),
        });
        const prefix = jsdoc(docLines(part));
        return isInterfaceShape(part) && text.startsWith("{\n")
          ? `${prefix}export interface ${typeName} ${text}`
          : `${prefix}export type ${typeName} = ${text};`;
      };
      toolBlocks.push(print(name, withoutDefs(schema), pointer));
      for (const [def, defName] of local)
        toolBlocks.push(print(defName, defs[def], `${pointer}/$defs/${escapeToken(def)}`));
    }
  }

  const map = ctx.contract.tools
    .map((tool) => {
      const n = names.get(tool.name)!;
      const fields = [`input: ${n.input}`];
      if (n.output) fields.push(`output: ${n.output}`, `result: ${n.result}`);
      return `  ${propertyKey(tool.name)}: { ${fields.join("; ")} };`;
    })
    .join("\n");
  const body = [
    codeHeader(),
    ...toolBlocks.map((b) => `${b}\n`),
    ...declarations.map((d) => `${d}\n`),
    `/** Input, output and unwrapped result type of every tool, by tool name. */\nexport interface ToolTypes {\n${map}\n}\n`,
  ].join("\n");
  return { path: `${ctx.outDir}/types.ts`, content: finish(body) };
}

/** A schema printed as one object literal can be declared as an interface. */
function isInterfaceShape(schema: unknown): boolean {
  if (!isObject(schema) || schema.type !== "object" || !isObject(schema.properties)) return false;
  return !["anyOf", "oneOf", "allOf", "$ref", "const", "enum"].some((k) => k in schema);
}

function withoutDefs(schema: JsonSchema): JsonSchema {
  const { $defs: _a, definitions: _b, ...rest } = schema;
  return rest;
}
