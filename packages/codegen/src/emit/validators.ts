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
import { codeHeader, finish, type OutputFile } from "./writer.ts";

const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ??
  standaloneModule) as typeof import("ajv/dist/standalone/index.js").default;

/** Export names of a tool's validators in `validators.js`. */
export function validatorExports(toolName: string): { input: string; output: string } {
  const id = identifier(toolName);
  return { input: `${id}_input`, output: `${id}_output` };
}

/**
 * Emits `validators.js` (Ajv standalone ESM: every input and output schema, compiled once
 * at build time) and its `validators.d.ts`. Schemas that validate alike (equal but for
 * annotations such as descriptions) share one compiled function. A schema Ajv rejects
 * stops the build with the JSON pointer of the problem.
 */
export function emitValidators(ctx: EmitContext): OutputFile[] {
  let notes: { message: string; pointer: string }[] = [];
  const ajv = createAjv({ source: true, log: (message) => notes.push(strictNote(message)) });
  const exports: Record<string, string> = {};
  const aliases: string[] = [];
  const declared: string[] = [];
  const compiled = new Map<string, { key: string; name: string; notes: typeof notes }>();
  ctx.contract.tools.forEach((tool, i) => {
    const names = validatorExports(tool.name);
    for (const [slot, name] of [
      ["inputSchema", names.input],
      ["outputSchema", names.output],
    ] as const) {
      const schema = tool[slot];
      if (!schema) continue;
      const at = `/tools/${i}/${slot}`;
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
        entry = { key: `${slot}:${tool.name}`, name, notes };
        compile(ctx, ajv, bare, entry.key, at);
        compiled.set(shape, entry);
        exports[name] = entry.key;
      } else {
        // Ajv's standalone code would repeat the function for a second export of it
        aliases.push(`export const ${name} = ${entry.name};`);
      }
      for (const note of [...own, ...entry.notes]) {
        ctx.warnings.push(
          diagnostic("MCPG124", `tool "${tool.name}": ${note.message}`, {
            file: ctx.contractFile,
            pointer: `${at}${note.pointer}`,
          }),
        );
      }
    }
  });
  const code =
    Object.keys(exports).length > 0
      ? esmImports([standaloneCode(ajv, exports), ...aliases].join("\n"))
      : "export {};";
  const declarations = declared.map((name) => `export declare const ${name}: RawValidate;`).join("\n");
  return [
    { path: `${ctx.outDir}/validators.js`, content: finish(`${codeHeader()}${code}`) },
    {
      path: `${ctx.outDir}/validators.d.ts`,
      content: finish(
        `${codeHeader()}import type { RawValidate } from "@mcp-gen/runtime/validation";\n\n${declarations}`,
      ),
    },
  ];
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
 * Ajv's standalone ESM still `require()`s its runtime helpers and formats. A module-local
 * `require` from `createRequire` keeps CommonJS semantics for them under Node and test
 * runners alike (a default import would not: interop differs between loaders).
 */
function esmImports(code: string): string {
  const body = code.replace(/^"use strict";/, "");
  if (!body.includes("require(")) return body;
  return `import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n${body}`;
}
