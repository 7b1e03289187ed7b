import { apiServer, renderDeclarations } from "@mcp-gen/schema";
import type { EmitContext } from "./context.ts";
import { codeHeader, finish, type OutputFile } from "./writer.ts";

/**
 * The file's last lines: a module, so that a project whose tsconfig takes in `generated/` gets no
 * global namespace from it (its code would type-check calls to functions that do not exist).
 * `createChecker({ declarations })` reads the text without them.
 */
const MODULE_GUARD = `// A module, so that compiling generated/ adds no global namespace; code mode reads it without this line.
export {};
`;

/**
 * Emits `api.d.ts`: the server's tools as code mode declares them to a model (a namespace of async
 * functions with their JSDoc, argument and result types), the same text the runtime renders from
 * `tools/list`. It compiles alone with `lib: ["es2022"]`.
 */
export function emitApiDeclarations(ctx: EmitContext): OutputFile {
  // No warnings of its own: `types.ts` prints the same schemas with the same printer and warns
  // about what cannot be typed, at the same pointers (a second warning would say it twice).
  const text = renderDeclarations([apiServer(ctx.contract)], { warn: () => {} });
  return { path: `${ctx.outDir}/api.d.ts`, content: finish(`${codeHeader()}\n${text}\n${MODULE_GUARD}`) };
}
