import { existsSync } from "node:fs";
import path from "node:path";
import type { Contract } from "@mcp-gen/schema";
import { type Diagnostic, diagnostic, McpGenError } from "@mcp-gen/schema";
import type { Project, SourceFile, ts } from "ts-morph";
import { CONTRACT_SUFFIX, readContracts } from "../build.ts";
import { importExtensionOf } from "../config/import-extension.ts";
import { loadConfig, type ResolvedConfig, type ResolvedServerConfig } from "../config/load.ts";
import { contractFromIr } from "../contract/from-ir.ts";
import { serializeContract } from "../contract/read.ts";
import { emitServer, type ImportExtension } from "../emit/index.ts";
import type { OutputFile } from "../emit/writer.ts";
import { createProject, resolveToolFiles, typeErrors } from "../extract/project.ts";
import { writeOutputs } from "../write/atomic.ts";
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

interface ServerState {
  outputs: OutputFile[];
  contract?: string;
}

const rel = (root: string, file: string) => path.relative(root, file).split(path.sep).join("/");

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
  private servers = new Map<string, ServerState>();
  private dirty = new Set<string>();
  private readonly importExtension: ImportExtension;

  private constructor(
    readonly config: ResolvedConfig,
    private readonly only?: string[],
  ) {
    this.project = createProject(config);
    this.importExtension = importExtensionOf(config);
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

  /** Files and folders to watch: the config, every source file of the program, the schemas folder. */
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
    const all = changed === undefined;
    for (const file of changed ?? []) this.refresh(file);
    const servers = this.config.servers.filter((s) => !this.only || this.only.includes(s.name));
    const affected = new Set<string>();
    for (const server of servers) {
      const files = await resolveToolFiles(this.config, server);
      const before = this.toolFiles.get(server.name);
      if (!before || before.join("\n") !== files.join("\n")) {
        for (const f of files) this.dirty.add(f);
        this.toolFiles.set(server.name, files);
      }
      for (const file of files) {
        const deps = this.deps.get(file);
        if (all || !deps || !this.modules.has(file) || changed!.some((c) => deps.has(c)))
          this.dirty.add(file);
      }
      if (files.some((f) => this.dirty.has(f))) affected.add(server.name);
    }
    const dirtyFiles = [...this.dirty];
    const sources = dirtyFiles.map((f) => this.sourceFile(f));
    const program = this.project.getProgram().compilerObject;
    for (const sf of sources) this.deps.set(sf.getFilePath(), dependencies(sf));
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
    const result: RebuildResult = {
      rebuilt: [],
      extracted: dirtyFiles.map((f) => rel(this.config.root, f)).sort(),
      written: [],
      warnings: [],
    };
    const problems: Diagnostic[] = [];
    const outputs: OutputFile[] = [];
    const ownedDirs: string[] = [];
    for (const server of servers.filter((s) => affected.has(s.name))) {
      const built = this.extractServer(server, program);
      result.warnings.push(...built.warnings);
      if (built.errors.length > 0) {
        problems.push(...built.errors);
        continue;
      }
      result.rebuilt.push(server.name);
      const contract = contractFromIr(built.ir);
      const file = path.join(this.config.schemasDir, `${server.name}${CONTRACT_SUFFIX}`);
      this.emit(server.name, contract, file, "typescript", {
        problems,
        outputs,
        ownedDirs,
        warnings: result.warnings,
      });
    }
    const contractsChanged =
      all || (changed ?? []).some((f) => path.dirname(f) === this.config.schemasDir && !this.isTsContract(f));
    if (contractsChanged) {
      try {
        for (const { file, contract } of readContracts(this.config, this.only, result.warnings)) {
          result.rebuilt.push(contract.server);
          this.emit(contract.server, contract, file, "contract", {
            problems,
            outputs,
            ownedDirs,
            warnings: result.warnings,
          });
        }
      } catch (error) {
        if (!(error instanceof McpGenError)) throw error;
        problems.push(...error.diagnostics);
      }
    }
    if (problems.length > 0) throw new McpGenError(problems);
    result.written = writeOutputs({ files: outputs, ownedDirs }, this.config.root);
    this.dirty.clear();
    result.rebuilt.sort();
    return result;
  }

  private isTsContract(file: string): boolean {
    return this.config.servers.some((s) => path.basename(file) === `${s.name}${CONTRACT_SUFFIX}`);
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

  /** Emits a contract unless it is unchanged since the last build; collects what must be written. */
  private emit(
    server: string,
    contract: Contract,
    file: string,
    source: "typescript" | "contract",
    into: { problems: Diagnostic[]; outputs: OutputFile[]; ownedDirs: string[]; warnings: Diagnostic[] },
  ): void {
    const serialized = serializeContract(contract);
    const state = this.servers.get(server);
    const outDir = rel(this.config.root, path.join(this.config.generatedDir, contract.server));
    if (state && state.contract === serialized) return;
    try {
      const emitted = emitServer(contract, {
        contractFile: rel(this.config.root, file),
        outDir,
        targets: this.config.targets,
        importExtension: this.importExtension,
      });
      const outputs = [
        ...(source === "typescript" ? [{ path: rel(this.config.root, file), content: serialized }] : []),
        ...emitted.files,
      ];
      into.warnings.push(...emitted.warnings);
      this.servers.set(server, { outputs, contract: serialized });
      into.outputs.push(...outputs);
      into.ownedDirs.push(outDir);
    } catch (error) {
      if (!(error instanceof McpGenError)) throw error;
      into.problems.push(...error.diagnostics);
    }
  }
}

/** Every project source file a module depends on (itself included), following imports transitively. */
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
  return seen;
}
