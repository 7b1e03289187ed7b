import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { loadConfig, type ResolvedConfig } from "./config/load.ts";
import { contractFromIr } from "./contract/from-ir.ts";
import { readContract, serializeContract } from "./contract/read.ts";
import type { Contract } from "./contract/types.ts";
import { type Diagnostic, diagnostic, McpGenError } from "./diagnostics.ts";
import { emitServer } from "./emit/index.ts";
import type { OutputFile } from "./emit/writer.ts";
import { extract } from "./extract/index.ts";
import type { IrServer } from "./ir/types.ts";
import { writeOutputs } from "./write/atomic.ts";
import { type BuildOutputs, findStale, type StaleEntry } from "./write/outputs.ts";

export const CONTRACT_SUFFIX = ".tools.json";

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
  contracts: { file: string; contract: Contract; source: "typescript" | "contract" }[];
  outputs: BuildOutputs;
  warnings: Diagnostic[];
  /** Files written (build) or found stale (check). */
  changed: string[];
  stale: StaleEntry[];
}

const rel = (root: string, file: string) => path.relative(root, file).split(path.sep).join("/");

/**
 * Computes every output of the build in memory: contracts from the TypeScript servers,
 * plus every other contract found in the schemas folder, and the artifacts of each.
 */
export async function generate(
  config: ResolvedConfig,
  only?: string[],
): Promise<Omit<BuildResult, "changed" | "stale">> {
  const unknown = (only ?? []).filter(
    (name) => !config.servers.some((s) => s.name === name) && !existsSync(contractPath(config, name)),
  );
  if (unknown.length > 0) {
    throw new McpGenError(
      diagnostic("MCPG002", `unknown server(s): ${unknown.join(", ")}`, {
        file: config.displayFile,
        fix: "name a server of the config or a contract in the schemas folder",
      }),
    );
  }
  const { servers: ir, warnings } = await extract(config, only);
  const contracts: BuildResult["contracts"] = ir.map((server) => ({
    file: contractPath(config, server.name),
    contract: contractFromIr(server),
    source: "typescript" as const,
  }));
  const files: OutputFile[] = contracts.map(({ file, contract }) => ({
    path: rel(config.root, file),
    content: serializeContract(contract),
  }));
  for (const file of listContracts(config)) {
    const name = path.basename(file).slice(0, -CONTRACT_SUFFIX.length);
    if (config.servers.some((s) => s.name === name) || (only && !only.includes(name))) continue;
    const contract = readContract(file, rel(config.root, file));
    if (contract.server !== name) {
      throw new McpGenError(
        diagnostic(
          "MCPG040",
          `contract names server "${contract.server}" but its file is named for "${name}"`,
          {
            file: rel(config.root, file),
            pointer: "/server",
            fix: `rename the file to ${contract.server}${CONTRACT_SUFFIX} or set "server": "${name}"`,
          },
        ),
      );
    }
    contracts.push({ file, contract, source: "contract" });
  }
  const ownedDirs: string[] = [];
  const problems: Diagnostic[] = [];
  for (const { file, contract } of contracts) {
    const outDir = rel(config.root, path.join(config.generatedDir, contract.server));
    ownedDirs.push(outDir);
    try {
      const emitted = emitServer(contract, {
        contractFile: rel(config.root, file),
        outDir,
        targets: config.targets,
      });
      files.push(...emitted.files);
      warnings.push(...emitted.warnings);
    } catch (error) {
      if (!(error instanceof McpGenError)) throw error;
      problems.push(...error.diagnostics);
    }
  }
  if (problems.length > 0) throw new McpGenError(problems);
  return { config, ir, contracts, outputs: { files, ownedDirs }, warnings };
}

function contractPath(config: ResolvedConfig, server: string): string {
  return path.join(config.schemasDir, `${server}${CONTRACT_SUFFIX}`);
}

function listContracts(config: ResolvedConfig): string[] {
  if (!existsSync(config.schemasDir)) return [];
  return readdirSync(config.schemasDir)
    .filter((f) => f.endsWith(CONTRACT_SUFFIX))
    .sort()
    .map((f) => path.join(config.schemasDir, f));
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
  const result = await generate(config, options.servers);
  if (options.check) {
    const stale = findStale(result.outputs, config.root);
    return { ...result, stale, changed: stale.map((s) => s.path) };
  }
  const changed = writeOutputs(result.outputs, config.root);
  return { ...result, stale: [], changed };
}
