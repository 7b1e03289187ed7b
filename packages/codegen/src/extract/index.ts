import { type Diagnostic, diagnostic, McpGenError } from "@mcp-gen/schema";
import type { ResolvedConfig } from "../config/load.ts";
import type { IrServer, IrTool } from "../ir/types.ts";
import { ExtractContext } from "./context.ts";
import { createTypeMapper } from "./map-type.ts";
import { TOOL_NAME } from "./naming.ts";
import { createProject, resolveToolFiles, typeErrors } from "./project.ts";
import { extractModuleTools } from "./tools.ts";

export interface ExtractResult {
  servers: IrServer[];
  warnings: Diagnostic[];
}

/**
 * Reads the tool modules of every configured server (or of `only`) and returns their IR.
 * Throws `McpGenError` with every problem found: type errors first, then per-tool errors.
 *
 * @example
 * const { servers } = await extract(await loadConfig());
 */
export async function extract(config: ResolvedConfig, only?: readonly string[]): Promise<ExtractResult> {
  const selected = config.servers.filter((s) => !only || only.includes(s.name));
  const fileLists = await Promise.all(selected.map((s) => resolveToolFiles(config, s)));
  const project = createProject(config);
  for (const file of new Set(fileLists.flat())) project.addSourceFileAtPath(file);
  const program = project.getProgram().compilerObject;
  const sourceOf = (file: string) => {
    const sf = program.getSourceFile(file);
    if (!sf) throw new McpGenError(diagnostic("MCPG003", `cannot read tool module ${file}`));
    return sf;
  };
  const errors = typeErrors(program, [...new Set(fileLists.flat())].map(sourceOf), config.root);
  if (errors.length > 0) throw new McpGenError(errors);

  const checker = program.getTypeChecker();
  const servers: IrServer[] = [];
  const warnings: Diagnostic[] = [];
  selected.forEach((server, i) => {
    const ctx = new ExtractContext(checker, program, config.root);
    const map = createTypeMapper(ctx);
    const tools: IrTool[] = [];
    for (const file of fileLists[i]!) {
      const result = extractModuleTools(sourceOf(file), ctx, map, server.naming);
      tools.push(...result.tools);
      errors.push(...result.errors);
    }
    errors.push(...checkNames(tools));
    warnings.push(...ctx.warnings);
    tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    servers.push({ name: server.name, tools, definitions: sortKeys(ctx.definitions) });
  });
  if (errors.length > 0) throw new McpGenError(errors);
  return { servers, warnings };
}

/** Tool names that break the naming rule or are used twice in one server. */
export function checkNames(tools: readonly IrTool[]): Diagnostic[] {
  const problems: Diagnostic[] = [];
  const seen = new Map<string, IrTool>();
  for (const tool of tools) {
    if (!TOOL_NAME.test(tool.name)) {
      problems.push(
        diagnostic("MCPG031", `tool name "${tool.name}" does not match ${TOOL_NAME.source}`, {
          location: tool.location,
        }),
      );
    }
    const first = seen.get(tool.name);
    if (first) {
      const at = `${first.location.file}:${first.location.line}:${first.location.column}`;
      problems.push(
        diagnostic("MCPG030", `tool name "${tool.name}" is already used by the tool at ${at}`, {
          location: tool.location,
        }),
      );
    } else seen.set(tool.name, tool);
  }
  return problems;
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
