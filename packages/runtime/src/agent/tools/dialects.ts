import { convertContract, type Plan, providerToolName, type Target } from "@mcp-gen/schema";
import type { Dialect } from "../../providers/dialects.ts";
import { type ArgumentPlan, applyArgumentPlan } from "../../providers/normalize.ts";
import type { ToolDefinition } from "../../server/manifest.ts";

/** Provider definitions and normalization of a set of tools, by dialect. */
export interface DialectSupport {
  definition(dialect: Dialect, tool: string): Record<string, unknown> | undefined;
  normalize(dialect: Dialect, tool: string, args: unknown): unknown;
  /** Why a tool cannot be expressed in a dialect (`undefined` when it can). */
  problem(dialect: Dialect, tool: string): string | undefined;
}

const TARGET_OF: Record<Dialect, Target> = {
  anthropic: "anthropic",
  openai: "openai",
  "openai-strict": "openai",
  gemini: "gemini",
  "gemini-json-schema": "gemini",
};

/**
 * Converts tool definitions at run time with the same pure conversion `mcp-gen build` uses
 * (`@mcp-gen/schema`), once per target, on first use. Definitions are found under the name the
 * dialect sends the tool as (`providerToolName`: a name the dialect rejects is renamed).
 */
export function convertedDialects(server: string, tools: readonly ToolDefinition[]): DialectSupport {
  const cache = new Map<Target, ReturnType<typeof convertContract>>();
  const conversion = (dialect: Dialect) => {
    const target = TARGET_OF[dialect];
    let result = cache.get(target);
    if (!result) {
      result = convertContract({ server, tools: tools as never }, [target]);
      cache.set(target, result);
    }
    return result;
  };
  return {
    definition(dialect, tool) {
      const list = conversion(dialect).definitions[dialect] ?? [];
      const name = providerToolName(dialect, tool);
      return list.find((d) => definitionName(d) === name);
    },
    normalize(dialect, tool, args) {
      const plan: Plan | undefined = conversion(dialect).plans[dialect]?.[tool];
      return plan ? applyArgumentPlan(plan as ArgumentPlan, args) : args;
    },
    problem(dialect, tool) {
      const found = conversion(dialect).problems.filter((p) => p.dialect === dialect && p.tool === tool);
      return found.length > 0 ? found.map((p) => `${p.message} (${p.rule})`).join("; ") : undefined;
    },
  };
}

/** The generated `providerTools` of a server (`generated/<server>/providers/index.ts`). */
export type GeneratedProviderTools = Partial<Record<Dialect, unknown>>;

/** The generated `normalizeArguments` of a server (`generated/<server>/normalize.ts`). */
export type GeneratedNormalize = (dialect: Dialect, toolName: string, args: unknown) => unknown;

/**
 * Uses the definitions `mcp-gen build` generated where they exist, and converts at run time
 * for dialects the build did not target.
 */
export function generatedDialects(options: {
  fallback: DialectSupport;
  providers?: GeneratedProviderTools | undefined;
  normalize?: GeneratedNormalize | undefined;
}): DialectSupport {
  const { fallback, providers, normalize } = options;
  const listOf = (dialect: Dialect): Record<string, unknown>[] | undefined => {
    const file = providers?.[dialect];
    if (Array.isArray(file)) return file as Record<string, unknown>[];
    const declarations = (file as { functionDeclarations?: unknown } | undefined)?.functionDeclarations;
    return Array.isArray(declarations) ? (declarations as Record<string, unknown>[]) : undefined;
  };
  return {
    definition(dialect, tool) {
      const list = listOf(dialect);
      if (!list) return fallback.definition(dialect, tool);
      const name = providerToolName(dialect, tool);
      return list.find((d) => definitionName(d) === name);
    },
    normalize(dialect, tool, args) {
      if (listOf(dialect) && normalize) return normalize(dialect, tool, args);
      return fallback.normalize(dialect, tool, args);
    },
    problem(dialect, tool) {
      const list = listOf(dialect);
      if (!list) return fallback.problem(dialect, tool);
      const name = providerToolName(dialect, tool);
      return list.some((d) => definitionName(d) === name) ? undefined : "not among the generated definitions";
    },
  };
}

/** The tool name inside a definition of any dialect. */
export function definitionName(definition: Record<string, unknown>): string | undefined {
  const fn = definition.function as { name?: unknown } | undefined;
  const name = fn && typeof fn === "object" ? fn.name : definition.name;
  return typeof name === "string" ? name : undefined;
}

/** A copy of a definition offered under another name. */
export function renamed(definition: Record<string, unknown>, name: string): Record<string, unknown> {
  if (definitionName(definition) === name) return definition;
  const fn = definition.function;
  if (fn && typeof fn === "object") return { ...definition, function: { ...fn, name } };
  return { ...definition, name };
}

/** A tool's definition in a dialect, or why there is none. */
export function offerOf(
  support: DialectSupport,
  dialect: Dialect,
  tool: string,
): { definition: Record<string, unknown> } | { problem: string } {
  const definition = support.definition(dialect, tool);
  if (definition) return { definition };
  return { problem: support.problem(dialect, tool) ?? "no definition" };
}
