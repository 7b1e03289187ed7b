import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { type ConversionCache, type Diagnostic, McpGenError } from "@mcp-gen/schema";
import { importExtensionOf } from "../config/import-extension.ts";
import type { ResolvedConfig, ResolvedServerConfig } from "../config/load.ts";
import { contractFromIr } from "../contract/from-ir.ts";
import { serializeContract } from "../contract/read.ts";
import { emitServer, type ValidatorCache } from "../emit/index.ts";
import { reuseCommittedShapes } from "../emit/validator-reuse.ts";
import type { OutputFile } from "../emit/writer.ts";
import type { IrServer } from "../ir/types.ts";
import type { BuildOutputs, BuiltFile } from "../write/outputs.ts";
import {
  checkKnownServers,
  contractPath,
  orphanedOutputDirs,
  readContracts,
  rel,
  type SourcedContract,
} from "./contracts.ts";

/** How the IR of the TypeScript servers is obtained: a whole extraction, or watch's module cache. */
export type ExtractStep = (
  config: ResolvedConfig,
  servers: readonly ResolvedServerConfig[],
) => Promise<{ servers: IrServer[]; warnings: Diagnostic[] }>;

/** What the emitters produced for one contract, kept by watch so an unchanged contract is not emitted again. */
export interface EmittedServer {
  contract: string;
  files: OutputFile[];
  warnings: Diagnostic[];
}

export interface PipelineOptions {
  /** Only these servers (names from the config or the schemas folder). */
  only?: readonly string[] | undefined;
  extract: ExtractStep;
  /** Emitted files by server, reused while a server's contract is unchanged (and updated). */
  emitted?: Map<string, EmittedServer>;
  /** Compiled validators by shape, kept across runs by watch; a run without one starts empty. */
  validatorCache?: ValidatorCache;
  /** Provider conversions by tool, kept by watch so a rebuild converts only the tools that changed. */
  conversionCache?: ConversionCache;
  /**
   * Takes the shapes of each server's `validators.ts` on disk whose fingerprint shows them to be
   * what compiling would give, instead of compiling them (`build --check`; see `reuseCommittedShapes`).
   */
  reuseCommittedValidators?: boolean;
  /**
   * Each server's files are kept as UTF-8 bytes as soon as it is emitted, for a build that only
   * writes them (half the memory of the two-byte texts; peak RSS figures in bench/README.md).
   */
  encode?: boolean;
}

export interface PipelineResult {
  ir: IrServer[];
  contracts: SourcedContract[];
  outputs: BuildOutputs;
  warnings: Diagnostic[];
  /** Servers whose contract was emitted (not taken from `emitted`). */
  emittedServers: string[];
  /** Compiled shapes taken from the committed `validators.ts` files (`reuseCommittedValidators`). */
  reusedShapes: number;
}

/**
 * The build, in memory: extract → contract → emit, plus the contracts of the schemas folder and
 * the output folders of servers that no longer exist. `mcp-gen build`, `build --check` and
 * `build --watch` all run this; they differ only in `extract` and in what they do with the outputs.
 * Throws `McpGenError` with every problem found.
 *
 * @example
 * const result = await runPipeline(config, { extract: (c, servers) => extract(c, servers.map((s) => s.name)) });
 */
export async function runPipeline(config: ResolvedConfig, options: PipelineOptions): Promise<PipelineResult> {
  const { only } = options;
  checkKnownServers(config, only);
  const selected = config.servers.filter((s) => !only || only.includes(s.name));
  const { servers: ir, warnings } = await options.extract(config, selected);
  const info = new Map(selected.map((s) => [s.name, s.info]));
  const contracts: SourcedContract[] = ir.map((server) => ({
    file: contractPath(config, server.name),
    contract: contractFromIr(server, info.get(server.name)),
    source: "typescript",
  }));
  contracts.push(...readContracts(config, only, warnings));
  const files: BuiltFile[] = [];
  const keep = options.encode
    ? (file: OutputFile): BuiltFile => ({ path: file.path, content: Buffer.from(file.content, "utf8") })
    : (file: OutputFile): BuiltFile => file;
  const ownedDirs: string[] = [];
  const problems: Diagnostic[] = [];
  const emittedServers: string[] = [];
  const importExtension = importExtensionOf(config);
  // one compilation per shape for the whole run: servers share result and argument shapes
  const validatorCache = options.validatorCache ?? new Map();
  let reusedShapes = 0;
  if (options.reuseCommittedValidators) {
    for (const { contract } of contracts) {
      const committed = path.join(config.generatedDir, contract.server, "validators.ts");
      if (!existsSync(committed)) continue;
      reusedShapes += reuseCommittedShapes({
        contract,
        committed: readFileSync(committed, "utf8"),
        cache: validatorCache,
      });
    }
  }
  // each contract serialised once: watch compares it, and TypeScript servers write it
  const serializedContracts = contracts.map(({ contract }) => serializeContract(contract));
  for (const [i, { file, contract, source }] of contracts.entries()) {
    const outDir = rel(config.root, path.join(config.generatedDir, contract.server));
    ownedDirs.push(outDir);
    const serialized = serializedContracts[i]!;
    const contractFile = rel(config.root, file);
    let emitted = options.emitted?.get(contract.server);
    if (emitted?.contract !== serialized) {
      try {
        const out = emitServer(contract, {
          contractFile,
          outDir,
          targets: config.targets,
          importExtension,
          validatorCache,
          ...(options.conversionCache ? { conversionCache: options.conversionCache } : {}),
        });
        emitted = { contract: serialized, files: out.files, warnings: out.warnings };
      } catch (error) {
        if (!(error instanceof McpGenError)) throw error;
        problems.push(...error.diagnostics);
        continue;
      }
      options.emitted?.set(contract.server, emitted);
      emittedServers.push(contract.server);
    }
    // the serialised contract stays alive as text anyway (watch compares it)
    if (source === "typescript") files.push({ path: contractFile, content: serialized });
    for (const file of emitted.files) files.push(keep(file));
    warnings.push(...emitted.warnings);
  }
  if (problems.length > 0) throw new McpGenError(problems);
  if (!only) ownedDirs.push(...orphanedOutputDirs(config, ownedDirs));
  return { ir, contracts, outputs: { files, ownedDirs }, warnings, emittedServers, reusedShapes };
}
