import { canonicalShared } from "../canonical.ts";
import type { Contract, ContractTool } from "../contract.ts";
import { MCP_HEADER_KEYWORD } from "../headers.ts";
import { toAnthropic } from "./anthropic.ts";
import { toGemini, toGeminiJsonSchema } from "./gemini.ts";
import {
  Conversion,
  type Dialect,
  type DialectProblem,
  type MovedConstraint,
  TARGET_DIALECTS,
  TARGETS,
  type Target,
} from "./model.ts";
import { NAME_RULE, providerToolName } from "./names.ts";
import { toOpenAi, toOpenAiStrict } from "./openai.ts";
import { isActive, type Plan } from "./plan.ts";

/** Everything the conversion of one contract to its targets produced. */
export interface ProviderConversion {
  dialects: Dialect[];
  /** Definitions per dialect, in tool order (tools that failed a rule are missing). */
  definitions: Partial<Record<Dialect, Record<string, unknown>[]>>;
  /** Normalization plans per dialect and tool (only where arguments change). */
  plans: Partial<Record<Dialect, Record<string, Plan>>>;
  moved: MovedConstraint[];
  /** Tools emitted non-strict in `openai-strict.json`, with the reasons. */
  fallbacks: { dialect: Dialect; tool: string; reasons: string[] }[];
  /** Tools sent under another name because the dialect rejects theirs (see `providerToolName`). */
  renamed: RenamedTool[];
  problems: DialectProblem[];
}

/** A tool whose name a dialect rejects, and the name it is sent under there. */
export interface RenamedTool {
  dialect: Dialect;
  tool: string;
  name: string;
}

const byContext = new WeakMap<object, ProviderConversion>();

/**
 * Each tool's outcome by dialect, position and tool JSON, kept by a long-running caller (watch) so
 * that a rebuild converts only the tools that changed. A one-off build passes none: computing the
 * keys cost it ≈ 10 % of the conversion (bench/README.md, "Build").
 */
export type ConversionCache = Map<string, unknown>;

/** The conversion of an emit context's contract to its targets, computed once per context. */
export function conversionOf(ctx: {
  contract: Contract;
  targets?: readonly Target[];
  conversionCache?: ConversionCache;
}): ProviderConversion {
  let conversion = byContext.get(ctx);
  if (!conversion) {
    conversion = convertContract(
      ctx.contract,
      ctx.targets ?? TARGETS,
      ctx.conversionCache ? { cache: ctx.conversionCache } : {},
    );
    byContext.set(ctx, conversion);
  }
  return conversion;
}

/**
 * Converts every tool of a contract to every dialect of the given targets; with `cache`, tools
 * converted before under the same dialect, position and JSON are taken from it.
 */
export function convertContract(
  contract: Contract,
  targets: readonly Target[],
  options: { cache?: ConversionCache } = {},
): ProviderConversion {
  const dialects = targets.flatMap((t) => TARGET_DIALECTS[t]);
  const result: ProviderConversion = {
    dialects,
    definitions: {},
    plans: {},
    moved: [],
    fallbacks: [],
    renamed: [],
    problems: [],
  };
  // `x-mcp-header` says how an argument travels over HTTP (MCP 2026-07-28); models have no use for it.
  const tools = contract.tools.map((tool) => (hasHeaders(tool) ? withoutHeaders(tool) : tool));
  // Each tool's JSON once, not once per dialect: it keys the cache of outcomes.
  const { cache } = options;
  const toolJson = cache ? tools.map((tool) => JSON.stringify(tool)) : [];
  for (const dialect of dialects) {
    const list: Record<string, unknown>[] = [];
    const sentAs = contract.tools.map((tool) => providerToolName(dialect, tool.name));
    contract.tools.forEach((tool, i) => {
      const name = sentAs[i]!;
      if (name !== tool.name) {
        const other = contract.tools.find((_, k) => k !== i && sentAs[k] === name);
        if (other) {
          result.problems.push({
            dialect,
            tool: tool.name,
            pointer: `/tools/${i}/name`,
            rule: `${NAME_RULE[dialect]}/tool-name`,
            message: `the name is sent as "${name}" (the dialect rejects "${tool.name}"), which is also the name of tool "${other.name}"`,
          });
          return;
        }
      }
      const { conversion, definition, plan, fallback } = cache
        ? convertCached({ cache, dialect, tool: tools[i]!, i, json: toolJson[i]! })
        : convertOne(dialect, tools[i]!, i);
      result.problems.push(...conversion.problems);
      if (conversion.problems.length > 0 || !definition) return;
      result.moved.push(...conversion.moved);
      if (fallback) result.fallbacks.push({ dialect, tool: tool.name, reasons: fallback });
      if (isActive(plan)) {
        result.plans[dialect] ??= {};
        result.plans[dialect][tool.name] = plan!;
      }
      if (name !== tool.name) result.renamed.push({ dialect, tool: tool.name, name });
      list.push(name === tool.name ? definition : withName(definition, name));
    });
    result.definitions[dialect] = list;
  }
  return result;
}

function hasHeaders(tool: ContractTool): boolean {
  return JSON.stringify(tool.inputSchema).includes(`"${MCP_HEADER_KEYWORD}"`);
}

/** The tool without its `x-mcp-header` annotations (at any depth of its input schema). */
function withoutHeaders(tool: ContractTool): ContractTool {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key !== MCP_HEADER_KEYWORD)
        out[key] =
          key === "const" || key === "enum" || key === "default" || key === "examples" ? value : strip(value);
    }
    return out;
  };
  return { ...tool, inputSchema: strip(tool.inputSchema) as ContractTool["inputSchema"] };
}

/** A definition of any dialect under another tool name. */
function withName(definition: Record<string, unknown>, name: string): Record<string, unknown> {
  const fn = definition.function;
  if (fn && typeof fn === "object") return { ...definition, function: { ...fn, name } };
  return { ...definition, name };
}

interface ToolOutcome {
  conversion: Conversion;
  definition?: Record<string, unknown>;
  plan?: Plan;
  fallback?: string[];
}

/** Bound of a conversion cache (a long watch session sees many versions of its tools). */
const MAX_CACHED = 20_000;

function convertCached(args: {
  cache: ConversionCache;
  dialect: Dialect;
  tool: ContractTool;
  i: number;
  json: string;
}): ToolOutcome {
  const { cache, dialect, tool, i, json } = args;
  const key = `${dialect}\u0000${i}\u0000${json}`;
  const cached = cache.get(key) as ToolOutcome | undefined;
  if (cached) return cached;
  const outcome = convertOne(dialect, tool, i);
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, outcome);
  return outcome;
}

function convertOne(dialect: Dialect, tool: ContractTool, i: number): ToolOutcome {
  const conversion = new Conversion(dialect, tool.name, `/tools/${i}/inputSchema`);
  return { conversion, ...convertTool(dialect, tool, conversion) };
}

function convertTool(
  dialect: Dialect,
  tool: ContractTool,
  conversion: Conversion,
): { definition?: Record<string, unknown>; plan?: Plan; fallback?: string[] } {
  switch (dialect) {
    case "anthropic": {
      const definition = toAnthropic(tool, conversion);
      return definition ? { definition: canonicalIn(definition, "input_schema") } : {};
    }
    case "openai":
      return { definition: canonicalFunction(toOpenAi(tool)) };
    case "openai-strict": {
      const { definition, plan, fallback } = toOpenAiStrict(tool, conversion);
      return {
        definition: canonicalFunction(definition),
        ...(plan ? { plan } : {}),
        ...(fallback ? { fallback } : {}),
      };
    }
    case "gemini": {
      const { declaration, plan } = toGemini(tool, conversion);
      return declaration
        ? { definition: canonicalIn(declaration, "parameters"), ...(plan ? { plan } : {}) }
        : {};
    }
    case "gemini-json-schema": {
      const declaration = toGeminiJsonSchema(tool, conversion);
      return declaration ? { definition: canonicalIn(declaration, "parametersJsonSchema") } : {};
    }
  }
}

function canonicalIn(definition: Record<string, unknown>, key: string): Record<string, unknown> {
  return key in definition ? { ...definition, [key]: canonicalShared(definition[key]) } : definition;
}

function canonicalFunction(definition: Record<string, unknown>): Record<string, unknown> {
  const fn = definition.function as Record<string, unknown>;
  return { ...definition, function: canonicalIn(fn, "parameters") };
}
