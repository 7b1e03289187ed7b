import { apiServer, renderDeclarations } from "@mcp-gen/schema";
import { type EmitContext, warnAt } from "./context.ts";
import { codeHeader, finish, type OutputFile } from "./writer.ts";

/**
 * Emits `api.d.ts`: the server's tools as code mode declares them to a model (a namespace of async
 * functions with their JSDoc, argument and result types), the same text the runtime renders from
 * `tools/list`. A standalone script declaration file: it compiles with `lib: ["es2022"]` alone.
 */
export function emitApiDeclarations(ctx: EmitContext): OutputFile {
  const text = renderDeclarations([apiServer(ctx.contract)], {
    warn: ({ pointer }, message) => warnAt(ctx, pointer, `code-mode declarations: ${message}`),
  });
  return { path: `${ctx.outDir}/api.d.ts`, content: finish(`${codeHeader()}\n${text}`) };
}
