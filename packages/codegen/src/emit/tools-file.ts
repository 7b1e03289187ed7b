import type { EmitContext } from "./context.ts";
import { codeHeader, finish, type OutputFile } from "./writer.ts";

/** Emits `tools.ts`: the MCP tool definitions (`tools/list` entries) of the server. */
export function emitToolsFile(ctx: EmitContext): OutputFile {
  const json = JSON.stringify(ctx.contract.tools, null, 2);
  const content = `${codeHeader()}
/** The server's tools as MCP \`tools/list\` returns them. */
export const tools = ${json} as const;
`;
  return { path: `${ctx.outDir}/tools.ts`, content: finish(content) };
}
