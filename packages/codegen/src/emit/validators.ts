import { createAjv, declareAnnotations, diagnostic, McpGenError, strictNote } from "@mcp-gen/schema";
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
 * at build time) and its `validators.d.ts`. A schema Ajv rejects stops the build with the
 * JSON pointer of the problem.
 */
export function emitValidators(ctx: EmitContext): OutputFile[] {
  let current = "";
  let currentTool = "";
  const ajv = createAjv({
    source: true,
    log: (message) => {
      const note = strictNote(message);
      ctx.warnings.push(
        diagnostic("MCPG124", `tool "${currentTool}": ${note.message}`, {
          file: ctx.contractFile,
          pointer: `${current}${note.pointer}`,
        }),
      );
    },
  });
  const exports: Record<string, string> = {};
  ctx.contract.tools.forEach((tool, i) => {
    const names = validatorExports(tool.name);
    for (const [slot, name] of [
      ["inputSchema", names.input],
      ["outputSchema", names.output],
    ] as const) {
      const schema = tool[slot];
      if (!schema) continue;
      current = `/tools/${i}/${slot}`;
      currentTool = tool.name;
      declareAnnotations(ajv, schema);
      if (!ajv.validateSchema(schema)) {
        const problems = (ajv.errors ?? []).map((e) =>
          diagnostic("MCPG040", `invalid JSON Schema: ${e.message ?? e.keyword}`, {
            file: ctx.contractFile,
            pointer: `${current}${e.instancePath}`,
          }),
        );
        throw new McpGenError(problems);
      }
      try {
        // validated just above: skip addSchema's second meta-schema validation of the same schema
        ajv.addSchema(schema, `${slot}:${tool.name}`, undefined, false);
        ajv.getSchema(`${slot}:${tool.name}`);
      } catch (error) {
        throw new McpGenError(
          diagnostic("MCPG040", `cannot compile schema: ${(error as Error).message}`, {
            file: ctx.contractFile,
            pointer: current,
          }),
        );
      }
      exports[name] = `${slot}:${tool.name}`;
    }
  });
  const code = Object.keys(exports).length > 0 ? esmImports(standaloneCode(ajv, exports)) : "export {};";
  const declarations = Object.keys(exports)
    .map((name) => `export declare const ${name}: RawValidate;`)
    .join("\n");
  return [
    { path: `${ctx.outDir}/validators.js`, content: finish(`${codeHeader()}${code}`) },
    {
      path: `${ctx.outDir}/validators.d.ts`,
      content: finish(
        `${codeHeader()}import type { RawValidate } from "@mcp-gen/runtime";\n\n${declarations}`,
      ),
    },
  ];
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
