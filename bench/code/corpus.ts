/**
 * Code mode's benchmark corpus: the contracts and provider tool definitions of N distinct tools
 * (`corpus-distinct.ts`: every signature different, plain TypeScript, 250 tools a server), built by
 * the real pipeline (extract → contract → provider emitter) and cached in `bench/corpus/code-<N>/`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Contract, JsonSchema } from "@mcp-gen/schema";
import { loadConfig } from "../../packages/codegen/src/config/load.ts";
import { contractFromIr } from "../../packages/codegen/src/contract/from-ir.ts";
import type { EmitContext } from "../../packages/codegen/src/emit/context.ts";
import { emitProviders } from "../../packages/codegen/src/emit/providers/index.ts";
import { extract } from "../../packages/codegen/src/extract/index.ts";
import { generateDistinctCorpus } from "../corpus-distinct.ts";

export interface CodeCorpus {
  contracts: Contract[];
  /** The provider tool definitions of every server, as the build writes them, by file (`anthropic.json` …). */
  providers: Record<string, unknown[]>;
}

/** The corpus of `tools` distinct tools (built once, then read from its cache). */
export async function codeCorpus(tools: number): Promise<CodeCorpus> {
  const corpus = generateDistinctCorpusOnce(tools);
  const cache = path.join(corpus, "code-corpus.json");
  if (existsSync(cache)) return JSON.parse(readFileSync(cache, "utf8")) as CodeCorpus;
  const config = await loadConfig({ configFile: path.join(corpus, "mcp-gen.config.ts") });
  const { servers } = await extract(config);
  const contracts = servers.map((s) => contractFromIr(s));
  const providers: Record<string, unknown[]> = {};
  for (const contract of contracts) {
    const ctx: EmitContext = {
      contract,
      contractFile: `schemas/${contract.server}.tools.json`,
      outDir: `generated/${contract.server}`,
      warnings: [],
      importExtension: ".ts",
    };
    for (const file of emitProviders(ctx)) {
      if (!file.path.endsWith(".json") || file.path.endsWith("report.json")) continue;
      const list = JSON.parse(file.content) as unknown;
      const tools = Array.isArray(list) ? list : ((list as { tools?: unknown[] }).tools ?? [list]);
      const key = path.basename(file.path);
      providers[key] = [...(providers[key] ?? []), ...tools];
    }
  }
  const result = { contracts, providers };
  writeFileSync(cache, JSON.stringify(result));
  return result;
}

function generateDistinctCorpusOnce(tools: number): string {
  const root = path.join(import.meta.dirname, "..", "corpus", `code-${tools}`);
  if (!existsSync(path.join(root, "code-corpus.json"))) generateDistinctCorpus({ tools, out: root });
  return root;
}

/** A value of a schema (the first branch, the first enum member, required properties only). */
export function sample(schema: unknown, root: JsonSchema, depth = 0): unknown {
  if (typeof schema !== "object" || schema === null || depth > 6) return null;
  const s = schema as JsonSchema;
  if (typeof s.$ref === "string")
    return sample(root.$defs?.[s.$ref.split("/").pop() as never], root, depth + 1);
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  for (const k of ["anyOf", "oneOf"])
    if (Array.isArray(s[k])) return sample((s[k] as unknown[])[0], root, depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === "string") return "x";
  if (type === "number" || type === "integer") return typeof s.minimum === "number" ? s.minimum : 1;
  if (type === "boolean") return true;
  if (type === "null") return null;
  if (type === "array") {
    if (Array.isArray(s.prefixItems)) return s.prefixItems.map((p) => sample(p, root, depth + 1));
    return [sample(s.items, root, depth + 1)];
  }
  const out: Record<string, unknown> = {};
  const props = (s.properties ?? {}) as Record<string, unknown>;
  for (const name of (s.required as string[] | undefined) ?? [])
    out[name] = sample(props[name], root, depth + 1);
  return out;
}
