import type { Diagnostic } from "@mcp-gen/schema";
import { loadConfig, type ResolvedConfig } from "./config/load.ts";
import { extract } from "./extract/index.ts";
import type { IrServer } from "./ir/types.ts";
import type { SourcedContract } from "./pipeline/contracts.ts";
import { type ExtractStep, runPipeline } from "./pipeline/run.ts";
import { writeOutputs } from "./write/atomic.ts";
import { type BuildOutputs, findStale, type StaleEntry } from "./write/outputs.ts";

export { CONTRACT_SUFFIX, readContracts } from "./pipeline/contracts.ts";

export interface BuildOptions {
  /** Config file; default: the nearest `mcp-gen.config.*` upwards from `cwd`. */
  configFile?: string;
  cwd?: string;
  /** Only these servers. */
  servers?: string[];
  /** Compare with the disk instead of writing. */
  check?: boolean;
}

export interface BuildResult {
  config: ResolvedConfig;
  ir: IrServer[];
  contracts: SourcedContract[];
  /**
   * Every file of the build. `build()` holds each file's content as UTF-8 bytes when it writes them
   * (a check and `generate()` hold texts); `textOf(file)` reads either.
   */
  outputs: BuildOutputs;
  warnings: Diagnostic[];
  /** Files written (build) or found stale (check). */
  changed: string[];
  stale: StaleEntry[];
}

/** The build's extraction: every selected server's tool modules, read in one program (`extract/`). */
const extractAll: ExtractStep = (config, servers) =>
  extract(
    config,
    servers.map((s) => s.name),
  );

/**
 * Computes every output of the build in memory: contracts from the TypeScript servers,
 * plus every other contract found in the schemas folder, and the artifacts of each.
 */
export async function generate(
  config: ResolvedConfig,
  only?: string[],
  options: { reuseCommittedValidators?: boolean; encode?: boolean } = {},
): Promise<Omit<BuildResult, "changed" | "stale">> {
  const { ir, contracts, outputs, warnings } = await runPipeline(config, {
    only,
    extract: extractAll,
    ...options,
  });
  return { config, ir, contracts, outputs, warnings };
}

/**
 * `mcp-gen build`: generates everything, then writes it atomically — or, with `check`,
 * only reports what is stale. Nothing is written when anything fails.
 *
 * @example
 * const result = await build({ cwd: process.cwd() });
 * console.log(result.changed);
 */
export async function build(options: BuildOptions = {}): Promise<BuildResult> {
  const config = await loadConfig({
    ...(options.configFile ? { configFile: options.configFile } : {}),
    cwd: options.cwd ?? process.cwd(),
  });
  // a check compiles only the validators whose committed code it cannot take as it is; a build
  // that writes keeps each server's files as bytes once emitted
  const result = await generate(config, options.servers, {
    reuseCommittedValidators: options.check ?? false,
    encode: !options.check,
  });
  if (options.check) {
    const stale = findStale(result.outputs, config.root);
    return { ...result, stale, changed: stale.map((s) => s.path) };
  }
  const changed = writeOutputs(result.outputs, config.root);
  return { ...result, stale: [], changed };
}
