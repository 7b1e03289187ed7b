import { type Diagnostic, diagnostic, McpGenError } from "@mcp-gen/schema";
import type { ts } from "ts-morph";
import type { ResolvedConfig, ResolvedServerConfig } from "../config/load.ts";
import type { IrServer, IrTool } from "../ir/types.ts";
import { ExtractContext } from "./context.ts";
import { createTypeMapper } from "./map-type.ts";
import { TOOL_NAME } from "./naming.ts";
import { startNativeCheck } from "./native-check.ts";
import { createExtractionProgram, hasUnresolvedTypeNames } from "./program.ts";
import { resolveToolFiles, syntaxErrors, typeErrors } from "./project.ts";
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
  const files = [...new Set(fileLists.flat())];
  // TypeScript 7's native tsc type-checks in a child process while ts-morph extracts; the
  // extraction does not depend on a check having run (union members keep source order).
  const native = startNativeCheck(config, files);
  try {
    // While tsc checks the real program, extraction can start from one without the global type
    // packages; a type that does not resolve there, or any error, sends it to the whole program.
    let lean = native !== undefined;
    let program = createExtractionProgram(config, files, { withoutGlobalTypes: lean });
    if (lean && hasUnresolvedTypeNames(program)) {
      lean = false;
      program = createExtractionProgram(config, files);
    }
    const checkInProcess = () => {
      const checked = lean ? createExtractionProgram(config, files) : program;
      return typeErrors(checked, files.map(sourceOf(checked)), config.root);
    };
    const syntax = native
      ? syntaxErrors(program, files.map(sourceOf(program)), config.root)
      : checkInProcess();
    if (syntax.length > 0) throw new McpGenError(syntax);
    const attempt = (): { extracted?: ExtractResult; failure?: unknown } => {
      try {
        return { extracted: extractServers(program, selected, fileLists, config.root, lean) };
      } catch (error) {
        return { failure: error };
      }
    };
    let { extracted, failure } = attempt();
    if (lean && !extracted) {
      lean = false;
      program = createExtractionProgram(config, files);
      ({ extracted, failure } = attempt());
    }
    if (native) {
      // Type errors come first; code that does not type-check may also fail to extract.
      const errors = (await native.result) ?? checkInProcess();
      if (errors.length > 0) throw new McpGenError(errors);
    }
    if (!extracted) throw failure;
    return extracted;
  } finally {
    native?.cancel();
  }
}

function sourceOf(program: ts.Program) {
  return (file: string): ts.SourceFile => {
    const sf = program.getSourceFile(file);
    if (!sf) throw new McpGenError(diagnostic("MCPG003", `cannot read tool module ${file}`));
    return sf;
  };
}

function extractServers(
  program: ts.Program,
  selected: readonly ResolvedServerConfig[],
  fileLists: readonly string[][],
  root: string,
  lean: boolean,
): ExtractResult {
  const checker = program.getTypeChecker();
  const servers: IrServer[] = [];
  const warnings: Diagnostic[] = [];
  const errors: Diagnostic[] = [];
  selected.forEach((server, i) => {
    const ctx = new ExtractContext(checker, program, root, lean);
    const map = createTypeMapper(ctx);
    const tools: IrTool[] = [];
    for (const file of fileLists[i]!) {
      const result = extractModuleTools(program.getSourceFile(file)!, ctx, map, server.naming);
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
