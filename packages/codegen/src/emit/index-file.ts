import type { EmitContext } from "./context.ts";
import { importSpecifier } from "./imports.ts";
import { propertyKey } from "./names.ts";
import { type EmitItem, emitItems } from "./resources.ts";
import { toolTypeNames } from "./types.ts";
import { validatorExports } from "./validators.ts";
import { codeHeader, createWriter, finish, type OutputFile } from "./writer.ts";

/** Emits `index.ts`: typed validators per tool, plus re-exports of the types and definitions. */
export function emitIndex(ctx: EmitContext): OutputFile {
  const names = toolTypeNames(ctx);
  const items = emitItems(ctx);
  const w = createWriter();
  w.write(codeHeader()).blankLine();
  w.writeLine('import { createValidator } from "@mcp-gen/runtime/validation";');
  const types = importSpecifier(ctx, "./types.ts");
  const typed = ctx.contract.tools.length + items.templates.length + items.prompts.length > 0;
  if (typed) w.writeLine(`import type * as T from "${types}";`);
  w.writeLine(`import * as raw from "${importSpecifier(ctx, "./validators.ts")}";`).blankLine();
  // types only: `export type *` loads nothing at run time (`export *` would load the empty types.js)
  w.writeLine(`export type * from "${types}";`);
  w.writeLine(`export { tools } from "${importSpecifier(ctx, "./tools.ts")}";`).blankLine();
  w.writeLine(`/** Server name of this contract. */`);
  w.writeLine(`export const server = ${JSON.stringify(ctx.contract.server)};`).blankLine();
  w.writeLine("/** Validators of every tool's arguments (`input`) and structured result (`output`). */");
  w.writeLine("export const validators = {");
  w.indent(() => {
    for (const tool of ctx.contract.tools) {
      const n = names.get(tool.name)!;
      const ex = validatorExports(tool.name);
      w.writeLine(`${propertyKey(tool.name)}: {`);
      w.indent(() => {
        w.writeLine(
          `input: createValidator<T.${n.input}>(raw.${ex.input}, ${JSON.stringify(`arguments of tool "${tool.name}"`)}),`,
        );
        if (n.output) {
          w.writeLine(
            `output: createValidator<T.${n.output}>(raw.${ex.output}, ${JSON.stringify(`result of tool "${tool.name}"`)}),`,
          );
        }
      });
      w.writeLine("},");
    }
  });
  w.writeLine("} as const;");
  const more = (doc: string, name: string, list: EmitItem[], what: string) => {
    if (list.length === 0) return;
    w.blankLine().writeLine(doc);
    w.writeLine(`export const ${name} = {`);
    w.indent(() => {
      for (const item of list) {
        const label = JSON.stringify(`${what} of ${item.label}`);
        w.writeLine(
          `${propertyKey(item.name)}: createValidator<T.${item.argsType}>(raw.${item.validator}, ${label}),`,
        );
      }
    });
    w.writeLine("} as const;");
  };
  more(
    "/** Validators of the variables of every resource template (typed values). */",
    "resourceTemplateValidators",
    items.templates,
    "variables",
  );
  more(
    "/** Validators of the arguments of every prompt (typed values). */",
    "promptValidators",
    items.prompts,
    "arguments",
  );
  return { path: `${ctx.outDir}/index.ts`, content: finish(w.toString()) };
}
