import {
  createAjv,
  declareAnnotations,
  diagnostic,
  type JsonSchema,
  McpGenError,
  metaSchemaErrors,
  strictNote,
  withoutAnnotations,
} from "@mcp-gen/schema";
import standaloneModule from "ajv/dist/standalone/index.js";
import type { EmitContext } from "./context.ts";
import { identifier } from "./names.ts";
import { allItems, emitItems } from "./resources.ts";
import { codeHeader, finish, type OutputFile } from "./writer.ts";

const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ??
  standaloneModule) as typeof import("ajv/dist/standalone/index.js").default;

/** Export names of a tool's validators in `validators.ts`. */
export function validatorExports(toolName: string): { input: string; output: string } {
  const id = identifier(toolName);
  return { input: `${id}_input`, output: `${id}_output` };
}

/**
 * Emits `validators.ts` (Ajv standalone ESM: every input and output schema, compiled once
 * at build time, its exports typed `RawValidate`). Schemas that validate alike (equal but for
 * annotations such as descriptions) share one compiled function. A schema Ajv rejects
 * stops the build with the JSON pointer of the problem.
 */
export function emitValidators(ctx: EmitContext): OutputFile {
  const key = ctx.validators && reuseKey(ctx);
  if (!ctx.validators || key === undefined) return compileValidators(ctx);
  const previous = ctx.validators.previous;
  if (previous?.key === key) {
    ctx.warnings.push(...previous.warnings);
    return previous.file;
  }
  const before = ctx.warnings.length;
  const file = compileValidators(ctx);
  ctx.validators.previous = { key, file, warnings: ctx.warnings.slice(before) };
  return file;
}

/**
 * Everything `validators.ts` and its warnings are made of: the schemas with their export names,
 * labels and pointers, the contract file and the output folder. A tool's description or its
 * other emitted files may change while this stays the same.
 */
function reuseKey(ctx: EmitContext): string | undefined {
  let emitted: ReturnType<typeof emitItems>;
  try {
    emitted = emitItems(ctx);
  } catch {
    // compiled as usual, so that its errors come in their usual order
    return undefined;
  }
  const tools = ctx.contract.tools.map((tool) => [tool.name, tool.inputSchema, tool.outputSchema ?? null]);
  const items = allItems(emitted).map((item) => [
    item.validator ?? null,
    item.argumentsSchema ?? null,
    item.argumentsPointer ?? null,
    item.label,
    item.kind,
    item.name,
  ]);
  return JSON.stringify([ctx.contractFile, ctx.outDir, tools, items]);
}

function compileValidators(ctx: EmitContext): OutputFile {
  let notes: { message: string; pointer: string }[] = [];
  const ajv = createAjv({ source: true, log: (message) => notes.push(strictNote(message)) });
  const exports: Record<string, string> = {};
  const aliases: string[] = [];
  const declared: string[] = [];
  const compiled = new Map<string, { key: string; name: string; notes: typeof notes }>();
  const add = (schema: JsonSchema, name: string, key: string, at: string, label: string) => {
    declared.push(name);
    notes = [];
    declareAnnotations(ajv, schema);
    const bare = withoutAnnotations(schema) as JsonSchema;
    const shape = JSON.stringify(bare);
    validate(ctx, schema, { bare, json: shape }, at);
    const own = notes;
    let entry = compiled.get(shape);
    if (!entry) {
      notes = [];
      entry = { key, name, notes };
      compile(ctx, ajv, bare, entry.key, at);
      compiled.set(shape, entry);
      exports[name] = entry.key;
    } else {
      // Ajv's standalone code would repeat the function for a second export of it
      aliases.push(`export const ${name} = ${entry.name};`);
    }
    for (const note of [...own, ...entry.notes]) {
      ctx.warnings.push(
        diagnostic("MCPG124", `${label}: ${note.message}`, {
          file: ctx.contractFile,
          pointer: `${at}${note.pointer}`,
        }),
      );
    }
  };
  ctx.contract.tools.forEach((tool, i) => {
    const names = validatorExports(tool.name);
    for (const [slot, name] of [
      ["inputSchema", names.input],
      ["outputSchema", names.output],
    ] as const) {
      const schema = tool[slot];
      if (schema) add(schema, name, `${slot}:${tool.name}`, `/tools/${i}/${slot}`, `tool "${tool.name}"`);
    }
  });
  // the variables of resource templates and the arguments of prompts
  for (const item of allItems(emitItems(ctx))) {
    if (!item.argumentsSchema || !item.validator) continue;
    add(
      item.argumentsSchema,
      item.validator,
      `${item.kind}:${item.name}`,
      item.argumentsPointer!,
      item.label,
    );
  }
  const code =
    Object.keys(exports).length > 0
      ? typedExports(esmImports([standaloneCode(ajv, exports), ...aliases].join("\n")))
      : "export {};";
  // TypeScript, so that the project's own `tsc` compiles it into its output with the rest (a `.js`
  // file would need `allowJs`); Ajv's code itself is not type-checked, only its exports are typed.
  const head = `${codeHeader()}// @ts-nocheck: Ajv's standalone code; its exports are typed RawValidate.\n`;
  const imports =
    declared.length > 0 ? 'import type { RawValidate } from "@mcp-gen/runtime/validation";\n' : "";
  return { path: `${ctx.outDir}/validators.ts`, content: finish(`${head}${imports}${code}`) };
}

/** `export const tool_input = validate0;` → `export const tool_input: RawValidate = validate0;` */
function typedExports(code: string): string {
  return code.replace(/export const (\w+) = (\w+);/g, "export const $1: RawValidate = $2;");
}

type Ajv = ReturnType<typeof createAjv>;

function validate(
  ctx: EmitContext,
  schema: JsonSchema,
  shape: { bare: unknown; json: string },
  at: string,
): void {
  const errors = metaSchemaErrors(schema, shape);
  if (errors.length === 0) return;
  throw new McpGenError(
    errors.map((e) =>
      diagnostic("MCPG040", `invalid JSON Schema: ${e.message}`, {
        file: ctx.contractFile,
        pointer: `${at}${e.instancePath}`,
      }),
    ),
  );
}

function compile(ctx: EmitContext, ajv: Ajv, schema: JsonSchema, key: string, at: string): void {
  try {
    // validated by the caller: skip addSchema's own meta-schema validation
    ajv.addSchema(schema, key, undefined, false);
    ajv.getSchema(key);
  } catch (error) {
    throw new McpGenError(
      diagnostic("MCPG040", `cannot compile schema: ${(error as Error).message}`, {
        file: ctx.contractFile,
        pointer: at,
      }),
    );
  }
}

/**
 * Ajv's standalone ESM still `require()`s its runtime helpers and formats. The module-local
 * `require` comes from `@mcp-gen/runtime/ajv-runtime`, which imports them from the runtime's own
 * dependencies: resolved from the user's project they would need `ajv` hoisted into its
 * `node_modules`, and a bundler could not follow them.
 */
function esmImports(code: string): string {
  const body = code.replace(/^"use strict";/, "");
  if (!body.includes("require(")) return body;
  return `import { ajvRequire as require } from "@mcp-gen/runtime/ajv-runtime";\n${body}`;
}
