import { existsSync } from "node:fs";
import { type Diagnostic, diagnostic, McpGenError } from "@mcp-gen/schema";
import type { ts } from "ts-morph";
import type { ResolvedConfig, ResolvedServerConfig } from "../config/load.ts";
import type { IrServer, IrTool } from "../ir/types.ts";
import { ExtractContext } from "./context.ts";
import { inlineDefinitions } from "./defs.ts";
import { signalBuildSize } from "./large-build.ts";
import { createTypeMapper } from "./map-type.ts";
import { TOOL_NAME } from "./naming.ts";
import { extractionPrograms, type Lean } from "./programs.ts";
import { resolveToolFiles } from "./project.ts";
import { assembleServerParts, type ServerParts } from "./resources/assemble.ts";
import { extractModuleTools } from "./tools.ts";
import { startTypeCheck } from "./type-check.ts";

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
  const files = [...new Set(fileLists.flat())];
  for (const file of files) {
    if (!existsSync(file)) throw new McpGenError(diagnostic("MCPG003", `cannot read tool module ${file}`));
  }
  signalBuildSize(files);
  const check = startTypeCheck(config, files);
  try {
    const programs = extractionPrograms(config, files, { lean: check.parallel });
    const early = check.before(programs.first, programs.whole);
    if (early.length > 0) throw new McpGenError(early);
    let extracted: ExtractResult | undefined;
    let failure: unknown;
    try {
      extracted = programs.read((program, lean) =>
        extractServers(program, selected, fileLists, config.root, lean),
      );
    } catch (error) {
      failure = error;
    }
    // Type errors come first; code that does not type-check may also fail to extract.
    const typeErrors = await check.after(programs.whole);
    if (typeErrors.length > 0) throw new McpGenError(typeErrors);
    if (!extracted) throw failure;
    return extracted;
  } finally {
    check.cancel();
  }
}

function extractServers(
  program: ts.Program,
  selected: readonly ResolvedServerConfig[],
  fileLists: readonly string[][],
  root: string,
  lean: Lean,
): { value: ExtractResult; incomplete: boolean } {
  const checker = program.getTypeChecker();
  const servers: IrServer[] = [];
  const warnings: Diagnostic[] = [];
  const errors: Diagnostic[] = [];
  let incomplete = false;
  selected.forEach((server, i) => {
    const ctx = new ExtractContext(checker, program, root, lean !== false, lean === "es5");
    const map = createTypeMapper(ctx);
    const tools: IrTool[] = [];
    const parts: ServerParts = { resources: [], resourceTemplates: [], prompts: [], completers: [] };
    for (const file of fileLists[i]!) {
      const result = extractModuleTools(program.getSourceFile(file)!, ctx, map, server.naming);
      tools.push(...result.tools);
      parts.resources.push(...result.resources);
      parts.resourceTemplates.push(...result.resourceTemplates);
      parts.prompts.push(...result.prompts);
      parts.completers.push(...result.completers);
      errors.push(...result.errors);
    }
    errors.push(...checkNames(tools));
    const assembled = assembleServerParts(parts);
    errors.push(...assembled.errors);
    warnings.push(...ctx.warnings);
    incomplete ||= ctx.incomplete;
    tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const ir: IrServer = { name: server.name, tools, ...assembled.ir, definitions: ctx.definitions };
    inlineDefinitions(ir, ctx.singleUseDefinitions());
    servers.push({ ...ir, definitions: sortKeys(ir.definitions) });
  });
  if (incomplete) return { value: { servers, warnings }, incomplete };
  if (errors.length > 0) throw new McpGenError(errors);
  return { value: { servers, warnings }, incomplete };
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
