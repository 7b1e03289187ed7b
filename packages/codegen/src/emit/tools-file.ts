import type { EmitContext } from "./context.ts";
import { codeHeader, finish, type OutputFile } from "./writer.ts";

/**
 * Emits `tools.ts`: the MCP tool definitions (`tools/list` entries) of the server, and its resources,
 * resource templates and prompts (list entries) when it has them.
 */
export function emitToolsFile(ctx: EmitContext): OutputFile {
  const json = JSON.stringify(ctx.contract.tools, null, 2);
  let content = `${codeHeader()}
/** The server's tools as MCP \`tools/list\` returns them. */
export const tools = ${json} as const;
`;
  for (const [name, list, method] of [
    ["resources", ctx.contract.resources, "resources/list"],
    ["resourceTemplates", ctx.contract.resourceTemplates, "resources/templates/list"],
    ["prompts", ctx.contract.prompts, "prompts/list"],
  ] as const) {
    if (!list?.length) continue;
    content += `
/** The server's ${name === "resourceTemplates" ? "resource templates" : name} as MCP \`${method}\` returns them. */
export const ${name} = ${JSON.stringify(list, null, 2)} as const;
`;
  }
  return { path: `${ctx.outDir}/tools.ts`, content: finish(content) };
}
