import { existsSync } from "node:fs";
import { type ConversionCache, type Diagnostic, diagnostic, McpGenError } from "@mcp-gen/schema";
import type { Project, SourceFile, ts } from "ts-morph";
import { loadConfig, type ResolvedConfig, type ResolvedServerConfig } from "../config/load.ts";
import type { ValidatorCache } from "../emit/index.ts";
import { inputSchemaFiles } from "../extract/input-schema.ts";
import { createProject, resolveToolFiles, typeErrors } from "../extract/project.ts";
import type { IrServer } from "../ir/types.ts";
import { rel } from "../pipeline/contracts.ts";
import { type EmittedServer, runPipeline } from "../pipeline/run.ts";
import { writeOutputs } from "../write/atomic.ts";
import type { DiskMemo } from "../write/outputs.ts";
import { extractModule, extractServerWhole, type ModuleIr, mergeModules } from "./modules.ts";

/** What one (re)build did. */
export interface RebuildResult {
  /** Servers whose contract was extracted again (TypeScript) or read again (contracts). */
  rebuilt: string[];
  /** Tool modules extracted again. */
  extracted: string[];
  /** Files written (relative to the project root). */
  written: string[];
  warnings: Diagnostic[];
}

/** A server's IR with what its extraction reported. */
type ServerIr = ReturnType<typeof extractServerWhole>;

/**
 * A build that stays alive for `mcp-gen build --watch`: the ts-morph project, the extraction of
 * every tool module and the outputs of every server are kept, so a change re-reads only the
 * changed files, re-extracts only the modules that depend on them, and re-emits only servers
 * whose contract changed. The files written are the same as a full `mcp-gen build`.
 *
 * @example
 * const { session } = await BuildSession.start({ cwd: process.cwd() });
 * await session.rebuild(["/abs/path/src/tools.ts"]);
 */
export class BuildSession {
  private project: Project;
  private toolFiles = new Map<string, string[]>();
  private modules = new Map<string, ModuleIr>();
  private deps = new Map<string, Set<string>>();
  private ir = new Map<string, ServerIr>();
  private emitted = new Map<string, EmittedServer>();
  /** What the outputs on disk hold, as this session last wrote or read them. */
  private disk: DiskMemo = new Map();
  /** Validators compiled so far, by shape: a rebuild compiles only the schemas that changed. */
  private validatorCache: ValidatorCache = new Map();
  /** Provider conversions so far, by tool: a rebuild converts only the tools that changed. */
  private conversionCache: ConversionCache = new Map();
  private program: ts.Program | undefined;
  private dirty = new Set<string>();

  private constructor(
    readonly config: ResolvedConfig,
    private readonly only?: string[],
  ) {
    this.project = createProject(config);
  }

  /** Loads the config and runs the first, full build. A failing first build still returns the session. */
  static async start(
    options: { configFile?: string; cwd?: string; servers?: string[] } = {},
  ): Promise<{ session: BuildSession; result?: RebuildResult; error?: McpGenError }> {
    const config = await loadConfig({
      ...(options.configFile ? { configFile: options.configFile } : {}),
      cwd: options.cwd ?? process.cwd(),
    });
    const session = new BuildSession(config, options.servers);
    try {
      return { session, result: await session.rebuild() };
    } catch (error) {
      if (error instanceof McpGenError) return { session, error };
      throw error;
    }
  }

  /**
   * Files and folders to watch: the config, every source file of the program, the JSON files of
   * `@inputSchema` tags, the schemas folder.
   */
  watchedPaths(): { files: string[]; dirs: string[] } {
    const files = new Set<string>([this.config.file]);
    for (const set of this.deps.values()) for (const f of set) files.add(f);
    for (const list of this.toolFiles.values()) for (const f of list) files.add(f);
    return { files: [...files].sort(), dirs: [this.config.schemasDir] };
  }

  /**
   * Rebuilds after `changed` (absolute paths; none: everything). Throws `McpGenError` with every
   * problem and writes nothing when the build fails; the next call retries what failed.
   */
  async rebuild(changed?: readonly string[]): Promise<RebuildResult> {
    let extracted: string[] = [];
    let affected: string[] = [];
    // The build's pipeline, with this session's module cache as its extraction step.
    const result = await runPipeline(this.config, {
      only: this.only,
      emitted: this.emitted,
      validatorCache: this.validatorCache,
      conversionCache: this.conversionCache,
      extract: async (_config, servers) => {
        ({ extracted, affected } = await this.extractChanged(servers, changed));
        return this.serverIr(servers);
      },
    });
    const written = writeOutputs(result.outputs, this.config.root, this.disk);
    this.dirty.clear();
    const rebuilt = new Set([...affected, ...result.emittedServers]);
    return {
      rebuilt: [...rebuilt].sort(),
      extracted: extracted.map((f) => rel(this.config.root, f)).sort(),
      written,
      warnings: result.warnings,
    };
  }

  /**
   * Type-checks and extracts again the tool modules that `changed` reaches (in process, and only
   * those files: a whole-program check on every change would cost more than the rebuild). Returns
   * them and the servers they belong to.
   */
  private async extractChanged(
    servers: readonly ResolvedServerConfig[],
    changed: readonly string[] | undefined,
  ): Promise<{ extracted: string[]; affected: string[] }> {
    for (const file of changed ?? []) this.refresh(file);
    const affected: string[] = [];
    for (const server of servers) {
      const files = await resolveToolFiles(this.config, server);
      const before = this.toolFiles.get(server.name);
      if (!before || before.join("\n") !== files.join("\n")) {
        for (const f of files) this.dirty.add(f);
        this.toolFiles.set(server.name, files);
      }
      for (const file of files) {
        const deps = this.deps.get(file);
        if (!changed || !deps || !this.modules.has(file) || changed.some((c) => deps.has(c)))
          this.dirty.add(file);
      }
      if (files.some((f) => this.dirty.has(f))) affected.push(server.name);
    }
    const dirtyFiles = [...this.dirty];
    const sources = dirtyFiles.map((f) => this.sourceFile(f));
    const program = this.project.getProgram().compilerObject;
    this.program = program;
    for (const sf of sources) this.deps.set(sf.getFilePath(), dependencies(sf));
    for (const name of affected) this.ir.delete(name);
    const errors = typeErrors(
      program,
      sources.map((sf) => program.getSourceFile(sf.getFilePath())!),
      this.config.root,
    );
    if (errors.length > 0) throw new McpGenError(errors);
    for (const sf of sources) {
      const server = servers.find((s) => this.toolFiles.get(s.name)!.includes(sf.getFilePath()))!;
      this.modules.set(
        sf.getFilePath(),
        extractModule(program.getSourceFile(sf.getFilePath())!, program, this.config.root, server),
      );
    }
    return { extracted: dirtyFiles, affected };
  }

  /** The IR of every server, from the module cache (a server no change reached keeps its own). */
  private serverIr(servers: readonly ResolvedServerConfig[]): {
    servers: IrServer[];
    warnings: Diagnostic[];
  } {
    const warnings: Diagnostic[] = [];
    const errors: Diagnostic[] = [];
    const ir: IrServer[] = [];
    for (const server of servers) {
      let built = this.ir.get(server.name);
      if (!built) {
        built = this.extractServer(server, this.program!);
        if (built.errors.length === 0) this.ir.set(server.name, built);
      }
      warnings.push(...built.warnings);
      errors.push(...built.errors);
      ir.push(built.ir);
    }
    if (errors.length > 0) throw new McpGenError(errors);
    return { servers: ir, warnings };
  }

  private refresh(file: string): void {
    const sf = this.project.getSourceFile(file);
    if (!sf) return;
    if (existsSync(file)) sf.refreshFromFileSystemSync();
    else this.project.removeSourceFile(sf);
  }

  private sourceFile(file: string): SourceFile {
    const sf = this.project.getSourceFile(file) ?? this.project.addSourceFileAtPathIfExists(file);
    if (!sf)
      throw new McpGenError(diagnostic("MCPG003", `cannot read tool module ${rel(this.config.root, file)}`));
    return sf;
  }

  private extractServer(server: ResolvedServerConfig, program: ts.Program) {
    const files = this.toolFiles.get(server.name)!;
    const merged = mergeModules(
      server,
      files.map((f) => this.modules.get(f)!),
    );
    if (merged) return merged;
    return extractServerWhole(
      files.map((f) => program.getSourceFile(f)!),
      program,
      this.config.root,
      server,
    );
  }
}

/**
 * Every project source file a module depends on (itself included), following imports transitively,
 * and the JSON files their `@inputSchema` tags name.
 */
function dependencies(sourceFile: SourceFile): Set<string> {
  const seen = new Set<string>();
  const queue = [sourceFile];
  while (queue.length > 0) {
    const sf = queue.pop()!;
    const file = sf.getFilePath();
    if (seen.has(file) || sf.isInNodeModules() || sf.isFromExternalLibrary() || sf.isDeclarationFile())
      continue;
    seen.add(file);
    queue.push(...sf.getReferencedSourceFiles());
  }
  for (const file of [...seen]) {
    const sf = sourceFile.getProject().getSourceFile(file);
    if (sf) for (const json of inputSchemaFiles(file, sf.getFullText())) seen.add(json);
  }
  return seen;
}
