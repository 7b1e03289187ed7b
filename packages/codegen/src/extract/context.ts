import path from "node:path";
import { type Diagnostic, type DiagnosticCode, diagnostic } from "@mcp-gen/schema";
import type { ts } from "ts-morph";
import type { IrType, SourceLocation } from "../ir/types.ts";

/** Where in the source a type is being mapped: the node to point at and a readable path. */
export interface Site {
  node: ts.Node;
  /** e.g. `parameter "commands" › items › property "arguments"` */
  path: string;
}

/** Thrown by type handlers for constructs JSON Schema cannot express; caught per tool. */
export class ExtractError extends Error {
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message);
  }
}

interface Recursion {
  name: string;
  referenced: boolean;
}

/** A tagged alias or interface kept as a named definition (see `named`). */
interface NamedEntry {
  name: string;
  uses: number;
  /** Still being mapped: a use now is a recursive one. */
  mapping: boolean;
  recursive: boolean;
}

/** Shared state of one server's extraction. */
export class ExtractContext {
  readonly warnings: Diagnostic[] = [];
  /** Named definitions for recursive types. */
  readonly definitions: Record<string, IrType> = {};
  private readonly inProgress = new Map<ts.Type, Recursion>();
  private readonly definitionNames = new Map<ts.Type, string>();
  private readonly namedEntries = new Map<ts.Symbol, Map<ts.Type, NamedEntry>>();

  constructor(
    readonly checker: ts.TypeChecker,
    readonly program: ts.Program,
    readonly root: string,
    /** The program was created without the global type packages (see `incomplete`). */
    readonly lean = false,
    /** The program has the ECMAScript 5 library alone: a library object type makes it `incomplete`. */
    readonly es5Lib = false,
  ) {}

  /** A type did not resolve in a `lean` program: the extraction must be done on the whole one. */
  incomplete = false;

  location(node: ts.Node): SourceLocation {
    const sf = node.getSourceFile();
    const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    return {
      file: path.relative(this.root, sf.fileName).split(path.sep).join("/"),
      line: line + 1,
      column: character + 1,
    };
  }

  fail(code: DiagnosticCode, message: string, site: Site, fix?: string): never {
    throw new ExtractError(
      diagnostic(code, `${site.path}: ${message}`, {
        location: this.location(site.node),
        ...(fix ? { fix } : {}),
      }),
    );
  }

  warn(code: DiagnosticCode, message: string, site: Site): void {
    this.warnings.push(diagnostic(code, `${site.path}: ${message}`, { location: this.location(site.node) }));
  }

  private readonly warned = new Set<string>();

  /** A warning given once per place and message, however often the type is met. */
  warnOnce(code: DiagnosticCode, message: string, site: Site, fix?: string): void {
    const location = this.location(site.node);
    const key = `${location.file}:${location.line}:${location.column} ${message}`;
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.warnings.push(diagnostic(code, `${site.path}: ${message}`, { location, ...(fix ? { fix } : {}) }));
  }

  /**
   * Maps an object-like type while detecting recursion: a type met again while it is being
   * mapped becomes a `ref`, and its mapping is stored as a named definition.
   */
  withRecursion(type: ts.Type, map: () => IrType): IrType {
    const active = this.inProgress.get(type);
    if (active) {
      active.referenced = true;
      return { kind: "ref", name: active.name };
    }
    const existing = this.definitionNames.get(type);
    if (existing) return { kind: "ref", name: existing };
    const entry: Recursion = { name: this.nameFor(type), referenced: false };
    this.inProgress.set(type, entry);
    try {
      const result = map();
      if (!entry.referenced) return result;
      this.definitions[entry.name] = result;
      this.definitionNames.set(type, entry.name);
      return { kind: "ref", name: entry.name };
    } finally {
      this.inProgress.delete(type);
    }
  }

  /**
   * Maps a tagged alias or interface (`symbol` with `type`) to a `ref` to its named definition,
   * mapping it once; a use met while it is being mapped makes it recursive. Definitions used once
   * and not recursive are put back in place after extraction (`singleUseDefinitions`).
   */
  named(symbol: ts.Symbol, type: ts.Type, map: () => IrType): IrType {
    const byType = this.namedEntries.get(symbol) ?? new Map<ts.Type, NamedEntry>();
    this.namedEntries.set(symbol, byType);
    const existing = byType.get(type);
    if (existing) {
      existing.uses++;
      if (existing.mapping) existing.recursive = true;
      return { kind: "ref", name: existing.name };
    }
    const entry: NamedEntry = {
      name: this.nameFor(type, symbol.getName()),
      uses: 1,
      mapping: true,
      recursive: false,
    };
    byType.set(type, entry);
    try {
      this.definitions[entry.name] = map();
    } catch (error) {
      byType.delete(type);
      throw error;
    } finally {
      entry.mapping = false;
    }
    return { kind: "ref", name: entry.name };
  }

  /** Named definitions of tagged types used once and not recursive: inlined where they are used. */
  singleUseDefinitions(): Set<string> {
    return singleUse(this.definitionUses());
  }

  /**
   * How often each named definition of a tagged type was used, and whether it is recursive (watch
   * adds these up over a server's modules, extracted each with a context of its own).
   */
  definitionUses(): Record<string, DefinitionUse> {
    const uses: Record<string, DefinitionUse> = {};
    for (const byType of this.namedEntries.values())
      for (const entry of byType.values())
        uses[entry.name] = { uses: entry.uses, recursive: entry.recursive };
    return uses;
  }

  private nameFor(type: ts.Type, given?: string): string {
    const base = given ?? (type.aliasSymbol ?? type.getSymbol())?.getName();
    const clean = base && /^[A-Za-z_$][\w$]*$/.test(base) && base !== "__type" ? base : "Anonymous";
    const named = [...this.namedEntries.values()].flatMap((m) => [...m.values()].map((e) => e.name));
    const taken = new Set([
      ...Object.keys(this.definitions),
      ...[...this.inProgress.values()].map((r) => r.name),
      ...named,
    ]);
    if (!taken.has(clean)) return clean;
    for (let i = 2; ; i++) if (!taken.has(`${clean}${i}`)) return `${clean}${i}`;
  }
}

/** The uses of one named definition of a tagged type. */
export interface DefinitionUse {
  uses: number;
  recursive: boolean;
}

/** The names, of `uses`, used once and not recursive. */
export function singleUse(uses: Readonly<Record<string, DefinitionUse>>): Set<string> {
  return new Set(
    Object.entries(uses)
      .filter(([, u]) => u.uses === 1 && !u.recursive)
      .map(([name]) => name),
  );
}
