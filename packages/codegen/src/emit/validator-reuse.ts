import { type Contract, type JsonSchema, withoutAnnotations } from "@mcp-gen/schema";
import type { EmitContext } from "./context.ts";
import { type ShapeCode, shapeFingerprint } from "./validator-fingerprint.ts";
import { type ValidatorCache, validatorSlots } from "./validators.ts";

/** A shape's line in `validators.ts`: its function scope, its root function and its fingerprint. */
const SHAPE_LINE = /^const (shape\d+) = \(\(\) => \{(.*)return (\w+);\}\)\(\); \/\/ ([\w-]{43})$/gm;
const EXPORT_LINE = /^export const (\w+): RawValidate = (shape\d+);$/gm;

/** The fingerprinted shapes of a `validators.ts`, by the names it exports them under. */
export function committedShapes(source: string): Map<string, ShapeCode & { fingerprint: string }> {
  const shapes = new Map<string, ShapeCode & { fingerprint: string }>();
  for (const [, variable, code, root, fingerprint] of source.matchAll(SHAPE_LINE)) {
    shapes.set(variable!, { code: code!, root: root!, fingerprint: fingerprint! });
  }
  const byExport = new Map<string, ShapeCode & { fingerprint: string }>();
  for (const [, name, variable] of source.matchAll(EXPORT_LINE)) {
    const shape = shapes.get(variable!);
    if (shape) byExport.set(name!, shape);
  }
  return byExport;
}

/**
 * Puts into `cache` the shapes of a server's committed `validators.ts` that are what compiling its
 * contract's schemas would give, so that `build --check` compiles only the others: a shape is
 * taken when the fingerprint written after its line equals the fingerprint of the schema the
 * contract now has under that export and of the line's code (see `shapeFingerprint`). A line
 * edited by hand, a changed schema or another Ajv fail that test; their shapes are compiled, and
 * the comparison with the disk then finds the file stale. Returns how many shapes were taken.
 *
 * @example
 * const cache: ValidatorCache = new Map();
 * reuseCommittedShapes({ contract, committed: readFileSync("generated/x/validators.ts", "utf8"), cache });
 */
export function reuseCommittedShapes(options: {
  contract: Contract;
  committed: string;
  cache: ValidatorCache;
}): number {
  const { contract, committed, cache } = options;
  const shapes = committedShapes(committed);
  if (shapes.size === 0) return 0;
  const ctx: EmitContext = { contract, contractFile: "", outDir: "", warnings: [], importExtension: ".js" };
  let slots: ReturnType<typeof validatorSlots>;
  try {
    slots = validatorSlots(ctx);
  } catch {
    // a contract the emitters reject: they report it when they run
    return 0;
  }
  let taken = 0;
  for (const { schema, name } of slots) {
    const shape = shapes.get(name);
    if (!shape) continue;
    const json = JSON.stringify(withoutAnnotations(schema) as JsonSchema);
    if (cache.has(json) || shapeFingerprint(json, shape) !== shape.fingerprint) continue;
    cache.set(json, { code: shape.code, root: shape.root, notes: [] });
    taken++;
  }
  return taken;
}
