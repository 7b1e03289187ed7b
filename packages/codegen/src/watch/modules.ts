import type { Diagnostic } from "@mcp-gen/schema";
import type { ts } from "ts-morph";
import type { ResolvedServerConfig } from "../config/load.ts";
import { type DefinitionUse, ExtractContext, singleUse } from "../extract/context.ts";
import { inlineDefinitions } from "../extract/defs.ts";
import { checkNames } from "../extract/index.ts";
import { createTypeMapper } from "../extract/map-type.ts";
import { assembleServerParts, type ServerParts } from "../extract/resources/assemble.ts";
import { extractModuleTools } from "../extract/tools.ts";
import type { IrServer, IrTool, IrType } from "../ir/types.ts";

/** The extraction of one tool module, kept between rebuilds. */
export interface ModuleIr extends ServerParts {
  tools: IrTool[];
  /** Definitions (recursive types, tagged aliases) its tools refer to. */
  definitions: Record<string, IrType>;
  /** How often its tools use each tagged alias's definition (added up over the server's modules). */
  definitionUses: Record<string, DefinitionUse>;
  warnings: Diagnostic[];
  errors: Diagnostic[];
}

/** Extracts one module with its own context (so it can be cached and redone alone). */
export function extractModule(
  sourceFile: ts.SourceFile,
  program: ts.Program,
  root: string,
  server: ResolvedServerConfig,
): ModuleIr {
  const ctx = new ExtractContext(program.getTypeChecker(), program, root);
  const { errors, ...parts } = extractModuleTools(sourceFile, ctx, createTypeMapper(ctx), server.naming);
  return {
    ...parts,
    definitions: { ...ctx.definitions },
    definitionUses: ctx.definitionUses(),
    warnings: ctx.warnings,
    errors,
  };
}

/**
 * Combines the modules of a server, in file order, into its IR — what one shared extraction
 * context produces, as long as no two modules define different recursive types under one name
 * (then `undefined`: extract the server as a whole instead).
 */
export function mergeModules(
  server: ResolvedServerConfig,
  modules: readonly ModuleIr[],
): { ir: IrServer; warnings: Diagnostic[]; errors: Diagnostic[] } | undefined {
  const tools: IrTool[] = [];
  const definitions: Record<string, IrType> = {};
  const uses: Record<string, DefinitionUse> = {};
  const warnings: Diagnostic[] = [];
  const errors: Diagnostic[] = [];
  const parts = emptyParts();
  for (const m of modules) {
    for (const [name, type] of Object.entries(m.definitions)) {
      if (name in definitions && JSON.stringify(definitions[name]) !== JSON.stringify(type)) return undefined;
      definitions[name] = type;
    }
    for (const [name, use] of Object.entries(m.definitionUses)) {
      const sum = uses[name];
      uses[name] = sum
        ? { uses: sum.uses + use.uses, recursive: sum.recursive || use.recursive }
        : { ...use };
    }
    tools.push(...m.tools);
    addParts(parts, m);
    warnings.push(...m.warnings);
    errors.push(...m.errors);
  }
  errors.push(...checkNames(tools));
  const assembled = assembleServerParts(parts);
  errors.push(...assembled.errors);
  tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // As a full build does: a tagged alias used once in the whole server goes back in place. On a
  // copy: inlining rewrites the IR it is given, and the modules' IR is kept for the next rebuild.
  const ir = structuredClone<IrServer>({ name: server.name, tools, ...assembled.ir, definitions });
  inlineDefinitions(ir, singleUse(uses));
  const sorted = Object.fromEntries(
    Object.entries(ir.definitions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return { ir: { ...ir, definitions: sorted }, warnings, errors };
}

/**
 * Extracts every module of a server with one shared context, exactly like a full build
 * (used when `mergeModules` finds a name clash).
 */
export function extractServerWhole(
  sourceFiles: readonly ts.SourceFile[],
  program: ts.Program,
  root: string,
  server: ResolvedServerConfig,
): { ir: IrServer; warnings: Diagnostic[]; errors: Diagnostic[] } {
  const ctx = new ExtractContext(program.getTypeChecker(), program, root);
  const map = createTypeMapper(ctx);
  const tools: IrTool[] = [];
  const errors: Diagnostic[] = [];
  const parts = emptyParts();
  for (const sf of sourceFiles) {
    const result = extractModuleTools(sf, ctx, map, server.naming);
    tools.push(...result.tools);
    addParts(parts, result);
    errors.push(...result.errors);
  }
  errors.push(...checkNames(tools));
  const assembled = assembleServerParts(parts);
  errors.push(...assembled.errors);
  tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const ir: IrServer = { name: server.name, tools, ...assembled.ir, definitions: ctx.definitions };
  inlineDefinitions(ir, ctx.singleUseDefinitions());
  const definitions = Object.fromEntries(
    Object.entries(ir.definitions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return {
    ir: { ...ir, definitions },
    warnings: ctx.warnings,
    errors,
  };
}

const emptyParts = (): ServerParts => ({ resources: [], resourceTemplates: [], prompts: [], completers: [] });

function addParts(parts: ServerParts, from: ServerParts): void {
  parts.resources.push(...from.resources);
  parts.resourceTemplates.push(...from.resourceTemplates);
  parts.prompts.push(...from.prompts);
  parts.completers.push(...from.completers);
}
